import { DEFAULT_QUEUE_SCHEDULES } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { isWithinSchedule } from './hours.js';

// 2025-01-06 is a Monday.
const at = (day: number, h: number, m = 0) => new Date(2025, 0, 6 + day, h, m);

describe('isWithinSchedule with the default queue schedule (admin §9)', () => {
  it.each([
    ['Monday 07:59', at(0, 7, 59), false],
    ['Monday 08:00', at(0, 8, 0), true],
    ['Friday 17:59', at(4, 17, 59), true],
    ['Friday 18:00', at(4, 18, 0), false],
    ['Saturday 11:59', at(5, 11, 59), true],
    ['Saturday 12:00', at(5, 12, 0), false],
    ['Sunday 10:00', at(6, 10, 0), false],
  ])('%s → %s', (_label, when, open) => {
    expect(isWithinSchedule(DEFAULT_QUEUE_SCHEDULES, when)).toBe(open);
  });

  it('is always open without schedules and closed on a day without hours', () => {
    expect(isWithinSchedule([], at(6, 3))).toBe(true);
    const noMonday = DEFAULT_QUEUE_SCHEDULES.map((s) =>
      s.weekdayEn === 'monday' ? { ...s, startTime: '', endTime: '' } : s,
    );
    expect(isWithinSchedule(noMonday, at(0, 10))).toBe(false);
  });
});
