import { describe, expect, it } from 'vitest';
import { timeSinceLabel, TIME_SINCE_REFRESH_MS } from './timeSince.js';

const NOW = Date.UTC(2025, 0, 10, 12, 0, 0);
const ago = (ms: number) => timeSinceLabel(NOW - ms, NOW);
const min = 60_000;
const hour = 60 * min;

describe('timeSinceLabel (core §4)', () => {
  it.each([
    [0, null],
    [2 * min + 59_999, null],
    [3 * min, { value: 3, unit: 'minutes', color: 'green' }],
    [10 * min, { value: 10, unit: 'minutes', color: 'green' }],
    [10 * min + 59_999, { value: 10, unit: 'minutes', color: 'green' }],
    [11 * min, { value: 11, unit: 'minutes', color: 'amber' }],
    [29 * min, { value: 29, unit: 'minutes', color: 'amber' }],
    [30 * min, { value: 30, unit: 'minutes', color: 'orange' }],
    [59 * min, { value: 59, unit: 'minutes', color: 'orange' }],
    [60 * min, { value: 1, unit: 'hours', color: 'red' }],
    [119 * min, { value: 1, unit: 'hours', color: 'red' }],
    [23 * hour + 59 * min, { value: 23, unit: 'hours', color: 'red' }],
    [24 * hour, { value: 1, unit: 'days', color: 'red' }],
    [49 * hour, { value: 2, unit: 'days', color: 'red' }],
  ])('%i ms ago → %o', (elapsed, expected) => {
    expect(ago(elapsed)).toEqual(expected);
  });

  it('a clock slightly behind the server shows no label', () => {
    expect(timeSinceLabel(NOW + 5_000, NOW)).toBeNull();
  });

  it('refreshes every 30 s', () => {
    expect(TIME_SINCE_REFRESH_MS).toBe(30_000);
  });
});
