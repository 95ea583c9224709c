/** Lists load their next page within 100 px of the bottom (admin §9). */
export const END_THRESHOLD_PX = 100;
/** List searches wait 500 ms after the last key (admin §9). */
export const SEARCH_DEBOUNCE_MS = 500;

export function nearBottom(
  el: { scrollHeight: number; scrollTop: number; clientHeight: number },
  threshold = END_THRESHOLD_PX,
): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < threshold;
}

interface Identified {
  id: number;
}

/** Live lists: create or update upserts by id (new rows first), delete removes (secondary §4). */
export function upsertById<T extends Identified>(list: readonly T[], item: T): T[] {
  const at = list.findIndex((x) => x.id === item.id);
  if (at === -1) return [item, ...list];
  const next = list.slice();
  next[at] = { ...next[at], ...item };
  return next;
}

export const removeById = <T extends Identified>(list: readonly T[], id: number): T[] =>
  list.filter((x) => x.id !== id);
