/** The billing clock: invoice generation, "today" and payment days read it; tests move it. */
let current: () => Date = () => new Date();

export const billingNow = (): Date => current();

/** Fixes the clock (tests); `undefined` restores the real one. */
export function setBillingClock(clock: (() => Date) | undefined): void {
  current = clock ?? (() => new Date());
}
