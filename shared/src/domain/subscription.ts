/** Subscription due date rules (core §2, §4, §9). */
const DAY = 86_400_000;

/** The due-date warning shows when fewer than 5 days remain. */
export const DUE_DATE_WARNING_DAYS = 5;

/** Whole days left until `dueDate` (negative once passed), truncated toward zero. */
export function daysUntilDue(dueDate: string | Date, now: number): number {
  const diff = (typeof dueDate === 'string' ? Date.parse(dueDate) : dueDate.getTime()) - now;
  return Math.trunc(diff / DAY);
}

export const isSubscriptionExpired = (dueDate: string | Date, now: number): boolean =>
  (typeof dueDate === 'string' ? Date.parse(dueDate) : dueDate.getTime()) <= now;

/** The N of 'Sua assinatura vence em N dia(s)', or null when no warning is due. */
export function dueDateWarningDays(dueDate: string | Date, now: number): number | null {
  if (isSubscriptionExpired(dueDate, now)) return null;
  const days = daysUntilDue(dueDate, now);
  return days < DUE_DATE_WARNING_DAYS ? days : null;
}
