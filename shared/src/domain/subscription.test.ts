import { describe, expect, it } from 'vitest';
import {
  daysUntilDue,
  dueDateWarningDays,
  DUE_DATE_WARNING_DAYS,
  isSubscriptionExpired,
} from './subscription.js';

const NOW = Date.UTC(2025, 5, 1, 12);
const DAY = 86_400_000;
const iso = (offset: number) => new Date(NOW + offset).toISOString();

describe('due-date warning (core §9: under 5 days)', () => {
  it.each([
    [10 * DAY, null],
    [5 * DAY, null],
    [5 * DAY - 1, 4],
    [4 * DAY, 4],
    [1 * DAY, 1],
    [3_600_000, 0],
    [0, null],
    [-DAY, null],
  ])('due in %i ms → %s', (offset, expected) => {
    expect(dueDateWarningDays(iso(offset), NOW)).toBe(expected);
  });

  it('counts whole days and goes negative once passed', () => {
    expect(daysUntilDue(iso(3 * DAY + 5), NOW)).toBe(3);
    expect(daysUntilDue(new Date(NOW - 2 * DAY), NOW)).toBe(-2);
    expect(DUE_DATE_WARNING_DAYS).toBe(5);
  });

  it('is expired at and after the due instant', () => {
    expect(isSubscriptionExpired(iso(0), NOW)).toBe(true);
    expect(isSubscriptionExpired(iso(1), NOW)).toBe(false);
  });
});
