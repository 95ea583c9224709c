/**
 * Subscription due date rules (core §2, §4, §9). A due date is a calendar date in the company's
 * time zone (America/Sao_Paulo unless the company's `timezone` setting names another): the
 * company is active through the whole of that day, and "N days" counts calendar days from today
 * there, so a 3-day trial shows 3 at any hour of the sign-up day.
 */
import { DEFAULT_TIME_ZONE, localDay } from './zone.js';

const DAY = 86_400_000;

/** The due-date warning shows when fewer than 5 days remain. */
export const DUE_DATE_WARNING_DAYS = 5;

/** The day `days` after today in `timeZone` (a trial's or a plan period's due date). */
export function addLocalDays(
  from: number | Date,
  days: number,
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  const today = Date.parse(`${localDay(from, timeZone)}T00:00:00Z`);
  return new Date(today + days * DAY).toISOString().slice(0, 10);
}

/** A stored due date is a date; a full timestamp is read as its day in the zone. */
const dueDayOf = (dueDate: string | Date, timeZone: string): string =>
  typeof dueDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(dueDate)
    ? dueDate
    : localDay(typeof dueDate === 'string' ? Date.parse(dueDate) : dueDate, timeZone);

/** Calendar days from today (in the zone) to the due date: 0 on the day, negative once passed. */
export function daysUntilDue(
  dueDate: string | Date,
  now: number,
  timeZone: string = DEFAULT_TIME_ZONE,
): number {
  const due = Date.parse(`${dueDayOf(dueDate, timeZone)}T00:00:00Z`);
  const today = Date.parse(`${localDay(now, timeZone)}T00:00:00Z`);
  return Math.round((due - today) / DAY);
}

/** Expired from the first moment of the day after the due date, in the company's zone. */
export const isSubscriptionExpired = (
  dueDate: string | Date,
  now: number,
  timeZone: string = DEFAULT_TIME_ZONE,
): boolean => daysUntilDue(dueDate, now, timeZone) < 0;

/** The N of 'Sua assinatura vence em N dia(s)', or null when no warning is due. */
export function dueDateWarningDays(
  dueDate: string | Date,
  now: number,
  timeZone: string = DEFAULT_TIME_ZONE,
): number | null {
  const days = daysUntilDue(dueDate, now, timeZone);
  return days >= 0 && days < DUE_DATE_WARNING_DAYS ? days : null;
}
