import type { ScheduleEntry } from '@atende/shared';

const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

const minutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * Whether `now` (server local time) falls inside the day's hours. No schedule at all means
 * hours were never set: always open. A day without hours, or with equal start and end (the
 * default Sunday 00:00-00:00), is closed.
 */
export function isWithinSchedule(schedules: readonly ScheduleEntry[], now: Date): boolean {
  if (!schedules.length) return true;
  const day = schedules.find((s) => s.weekdayEn === WEEKDAYS[now.getDay()]);
  if (!day?.startTime || !day.endTime) return false;
  const start = minutes(day.startTime);
  const end = minutes(day.endTime);
  const current = now.getHours() * 60 + now.getMinutes();
  return start < end && current >= start && current < end;
}
