/**
 * The "time since last interaction" label on a ticket list item (core §4), refreshed every 30 s.
 *
 * Specified bands: 3–10 min green, 30–59 min orange, from 60 min up to 24 h in hours (red),
 * after 24 h in days (red). Unspecified bands, chosen so the label never vanishes while a
 * customer waits longer:
 * - under 3 minutes: no label (the conversation is live; a label would only flicker);
 * - 11–29 minutes: minutes in amber, between green and orange.
 */
export const TIME_SINCE_REFRESH_MS = 30_000;

export type TimeSinceColor = 'green' | 'amber' | 'orange' | 'red';
export type TimeSinceUnit = 'minutes' | 'hours' | 'days';

export interface TimeSinceLabel {
  value: number;
  unit: TimeSinceUnit;
  color: TimeSinceColor;
}

const MINUTE = 60_000;

/** The label for a ticket last updated at `updatedAt`, seen at `now` (both epoch ms). */
export function timeSinceLabel(updatedAt: number, now: number): TimeSinceLabel | null {
  const minutes = Math.floor((now - updatedAt) / MINUTE);
  if (minutes < 3) return null;
  if (minutes <= 10) return { value: minutes, unit: 'minutes', color: 'green' };
  if (minutes < 30) return { value: minutes, unit: 'minutes', color: 'amber' };
  if (minutes < 60) return { value: minutes, unit: 'minutes', color: 'orange' };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { value: hours, unit: 'hours', color: 'red' };
  return { value: Math.floor(hours / 24), unit: 'days', color: 'red' };
}
