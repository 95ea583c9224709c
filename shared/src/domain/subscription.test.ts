import { describe, expect, it } from 'vitest';
import {
  addLocalDays,
  daysUntilDue,
  dueDateWarningDays,
  DUE_DATE_WARNING_DAYS,
  isSubscriptionExpired,
} from './subscription.js';
import { DEFAULT_TIME_ZONE, localDay, timeZoneOr } from './zone.js';

// São Paulo is UTC-3 (no daylight saving since 2019): 23:59 local on 1 June is 02:59Z on 2 June.
const saoPaulo = (day: string, hhmm: string) => Date.parse(`${day}T${hhmm}:00-03:00`);

describe('due dates are dates in the company time zone (issue 13, item 8)', () => {
  it('defaults to America/Sao_Paulo', () => {
    expect(DEFAULT_TIME_ZONE).toBe('America/Sao_Paulo');
    expect(localDay(saoPaulo('2025-06-01', '23:59'))).toBe('2025-06-01');
    expect(localDay(saoPaulo('2025-06-02', '00:01'))).toBe('2025-06-02');
  });

  it.each([
    // due date, local day, local time, expired, days left
    ['2025-06-01', '2025-06-01', '00:01', false, 0],
    ['2025-06-01', '2025-06-01', '23:59', false, 0],
    ['2025-06-01', '2025-06-02', '00:01', true, -1],
    ['2025-06-02', '2025-06-01', '23:59', false, 1],
    ['2025-06-04', '2025-06-01', '00:01', false, 3],
    ['2025-06-04', '2025-06-01', '23:59', false, 3],
  ])('due %s, at %s %s local: expired %s, %i days', (due, day, time, expired, days) => {
    const now = saoPaulo(day, time);
    expect(isSubscriptionExpired(due, now)).toBe(expired);
    expect(daysUntilDue(due, now)).toBe(days);
  });

  it('a 3-day trial shows 3 at any hour of the sign-up day, also late in the evening', () => {
    for (const time of ['00:01', '12:00', '21:30', '23:59']) {
      const now = saoPaulo('2025-06-01', time);
      const due = addLocalDays(now, 3);
      expect(due).toBe('2025-06-04');
      expect(dueDateWarningDays(due, now)).toBe(3);
    }
  });

  it('counts in the zone it is given; a bad zone falls back to the default', () => {
    const now = Date.parse('2025-06-02T02:30:00Z'); // 23:30 on 1 June in São Paulo
    expect(isSubscriptionExpired('2025-06-01', now, 'America/Sao_Paulo')).toBe(false);
    expect(isSubscriptionExpired('2025-06-01', now, 'UTC')).toBe(true);
    expect(timeZoneOr('Not/AZone')).toBe(DEFAULT_TIME_ZONE);
    expect(isSubscriptionExpired('2025-06-01', now, 'Not/AZone')).toBe(false);
  });
});

describe('due-date warning (core §9: under 5 days)', () => {
  const now = saoPaulo('2025-06-01', '12:00');
  it.each([
    ['2025-06-11', null],
    ['2025-06-06', null],
    ['2025-06-05', 4],
    ['2025-06-02', 1],
    ['2025-06-01', 0],
    ['2025-05-31', null],
  ])('due %s → %s', (due, expected) => {
    expect(dueDateWarningDays(due, now)).toBe(expected);
  });

  it('reads a timestamp as its local day', () => {
    expect(daysUntilDue(new Date(saoPaulo('2025-06-04', '23:00')), now)).toBe(3);
    expect(DUE_DATE_WARNING_DAYS).toBe(5);
  });
});
