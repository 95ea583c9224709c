/** The routing clock: business hours and bot time limits read it; tests fix it. */
let current: () => Date = () => new Date();

export const now = (): Date => current();

/** Fixes the clock (tests); `undefined` restores the real one. */
export function setClock(clock: (() => Date) | undefined): void {
  current = clock ?? (() => new Date());
}
