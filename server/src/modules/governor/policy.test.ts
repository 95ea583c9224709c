import { describe, expect, it } from 'vitest';
import { localTime, zonedTime } from '@atende/shared';
import {
  DEFAULT_SEND_POLICY,
  decideSend,
  newGovernorState,
  openBreaker,
  recordBulkResult,
  recordBulkSend,
  type GovernorState,
  type SendPolicy,
} from './policy.js';

// São Paulo is UTC-3 all year (no daylight saving since 2019).
const sp = (day: string, time: string) => new Date(`${day}T${time}-03:00`);
const D = '2026-11-23';
const NEXT = '2026-11-24';

const policy: SendPolicy = {
  ...DEFAULT_SEND_POLICY,
  minGapMs: 20_000,
  jitterMs: 10_000,
  longPauseEvery: 3,
  longPauseMs: 60_000,
  dailyCap: 10,
  warmupCaps: [2, 4],
  window: { start: '08:00', end: '20:00' },
  timeZone: 'America/Sao_Paulo',
  breakerFailures: 3,
  breakerPauseMs: 15 * 60_000,
};

const seasoned: GovernorState = { ...newGovernorState(sp('2026-11-01', '09:00')), day: D };
const state = (s: Partial<GovernorState>): GovernorState => ({ ...seasoned, ...s });
const last = sp(D, '10:00:00');

describe('decideSend', () => {
  const wait = (at: Date, reason: string) => ({ send: false, waitUntil: at, reason });
  it.each([
    ['a fresh connection in the window', state({}), 'bulk', sp(D, '10:00'), {}, { send: true }],
    [
      'agent lane with everything closed',
      state({ breakerUntil: sp(D, '23:00'), dailyCount: 99 }),
      'agent',
      sp(D, '22:00'),
      {},
      { send: true },
    ],
    [
      'just under the minimum gap',
      state({ lastBulkAt: last, sinceLongPause: 1 }),
      'bulk',
      sp(D, '10:00:19.999'),
      {},
      wait(sp(D, '10:00:20'), 'gap'),
    ],
    [
      'at the minimum gap',
      state({ lastBulkAt: last, sinceLongPause: 1 }),
      'bulk',
      sp(D, '10:00:20'),
      {},
      { send: true },
    ],
    [
      'the drawn jitter adds to the gap',
      state({ lastBulkAt: last, sinceLongPause: 1, jitterMs: 7_000 }),
      'bulk',
      sp(D, '10:00:25'),
      {},
      wait(sp(D, '10:00:27'), 'gap'),
    ],
    [
      'after longPauseEvery sends, the long pause',
      state({ lastBulkAt: last, sinceLongPause: 3, jitterMs: 1_000 }),
      'bulk',
      sp(D, '10:00:30'),
      {},
      wait(sp(D, '10:01:01'), 'long-pause'),
    ],
    [
      'one before the long pause, the short gap',
      state({ lastBulkAt: last, sinceLongPause: 2 }),
      'bulk',
      sp(D, '10:00:20'),
      {},
      { send: true },
    ],
    [
      'a long pause shorter than the gap keeps the gap',
      state({ lastBulkAt: last, sinceLongPause: 3 }),
      'bulk',
      sp(D, '10:00:10'),
      { longPauseMs: 0 },
      wait(sp(D, '10:00:20'), 'gap'),
    ],
    [
      'before the window opens',
      state({}),
      'bulk',
      sp(D, '07:59'),
      {},
      wait(sp(D, '08:00'), 'window'),
    ],
    [
      'when the window closes',
      state({}),
      'bulk',
      sp(D, '20:00'),
      {},
      wait(sp(NEXT, '08:00'), 'window'),
    ],
    [
      'late at night (already the next UTC day)',
      state({}),
      'bulk',
      sp(D, '23:30'),
      {},
      wait(sp(NEXT, '08:00'), 'window'),
    ],
    [
      'in another time zone',
      state({}),
      'bulk',
      new Date(`${D}T07:30:00+01:00`),
      { timeZone: 'Europe/Lisbon' },
      wait(new Date(`${D}T08:00:00Z`), 'window'),
    ],
    [
      'an overnight window',
      state({}),
      'bulk',
      sp(D, '23:30'),
      { window: { start: '22:00', end: '06:00' } },
      { send: true },
    ],
    [
      'the daily cap reached',
      state({ dailyCount: 10 }),
      'bulk',
      sp(D, '11:00'),
      {},
      wait(sp(NEXT, '08:00'), 'daily-cap'),
    ],
    [
      "yesterday's count does not hold today",
      state({ dailyCount: 10, day: '2026-11-22' }),
      'bulk',
      sp(D, '11:00'),
      {},
      { send: true },
    ],
    [
      'the cap without a window waits for local midnight',
      state({ dailyCount: 10 }),
      'bulk',
      sp(D, '11:00'),
      { window: null },
      wait(sp(NEXT, '00:00'), 'daily-cap'),
    ],
    [
      'warm-up: a new number on its first day',
      state({ startedAt: sp(D, '09:00'), dailyCount: 2 }),
      'bulk',
      sp(D, '11:00'),
      {},
      wait(sp(NEXT, '08:00'), 'warm-up'),
    ],
    [
      'warm-up: the second day allows more',
      state({ startedAt: sp('2026-11-22', '19:00'), dailyCount: 2 }),
      'bulk',
      sp(D, '11:00'),
      {},
      { send: true },
    ],
    [
      'warm-up: the second day has its own cap',
      state({ startedAt: sp('2026-11-22', '19:00'), dailyCount: 4 }),
      'bulk',
      sp(D, '11:00'),
      {},
      wait(sp(NEXT, '08:00'), 'warm-up'),
    ],
    [
      'warm-up over: the daily cap',
      state({ startedAt: sp('2026-11-21', '19:00'), dailyCount: 4 }),
      'bulk',
      sp(D, '11:00'),
      {},
      { send: true },
    ],
    [
      'the breaker open',
      state({ breakerUntil: sp(D, '10:15') }),
      'bulk',
      sp(D, '10:00'),
      {},
      wait(sp(D, '10:15'), 'breaker'),
    ],
    [
      'the breaker closed again',
      state({ breakerUntil: sp(D, '10:15') }),
      'bulk',
      sp(D, '10:15'),
      {},
      { send: true },
    ],
  ] as const)('%s', (_name, s, lane, now, overrides, expected) => {
    expect(decideSend(s, lane, now, { ...policy, ...overrides })).toEqual(expected);
  });
});

describe('recordBulkSend', () => {
  it.each([
    [
      'counts toward the pause and the day',
      state({ sinceLongPause: 1, dailyCount: 4 }),
      0,
      2,
      5,
      0,
    ],
    [
      'starts again after the long pause',
      state({ sinceLongPause: 3, dailyCount: 4 }),
      0.5,
      1,
      5,
      5_000,
    ],
    [
      'a new local day starts the count',
      state({ day: '2026-11-22', dailyCount: 9 }),
      0.99999,
      1,
      1,
      10_000,
    ],
  ] as const)('%s', (_name, s, random, sinceLongPause, dailyCount, jitterMs) => {
    const now = sp(D, '10:00');
    expect(recordBulkSend(s, now, policy, () => random)).toEqual({
      ...s,
      lastBulkAt: now,
      sinceLongPause,
      day: D,
      dailyCount,
      jitterMs,
    });
  });
});

describe('breaker', () => {
  const now = sp(D, '10:00');
  it('opens after breakerFailures failures in a row; a success resets the count', () => {
    let s = recordBulkResult(state({}), false, now, policy);
    s = recordBulkResult(s, false, now, policy);
    expect(s).toMatchObject({ failures: 2, breakerUntil: null });
    expect(recordBulkResult(s, true, now, policy).failures).toBe(0);
    s = recordBulkResult(s, false, now, policy);
    expect(s).toMatchObject({ failures: 0, breakerUntil: sp(D, '10:15') });
  });
  it('a disconnect opens it from now, never shortening a longer pause', () => {
    expect(openBreaker(state({}), now, policy).breakerUntil).toEqual(sp(D, '10:15'));
    const longer = state({ breakerUntil: sp(D, '11:00') });
    expect(openBreaker(longer, now, policy).breakerUntil).toEqual(sp(D, '11:00'));
  });
});

describe('local time', () => {
  it.each([
    ['America/Sao_Paulo', '2026-11-24T02:30:00Z', '2026-11-23', 23 * 60 + 30],
    ['Europe/Lisbon', '2026-07-01T07:15:00Z', '2026-07-01', 8 * 60 + 15],
    ['Asia/Tokyo', '2026-07-01T15:00:00Z', '2026-07-02', 0],
  ])('%s %s', (zone, iso, day, minutes) => {
    expect(localTime(new Date(iso), zone)).toEqual({ day, minutes });
    expect(zonedTime(day, minutes, zone)).toEqual(new Date(iso));
  });
});

describe('a day of bulk sends, simulated', () => {
  it('keeps every gap, pause, cap and the window over 300 sends', () => {
    const p = { ...policy, warmupCaps: [], dailyCap: 40, longPauseEvery: 20 };
    let s = newGovernorState(sp('2026-11-01', '09:00'));
    let now = sp(D, '19:00');
    const sent: Date[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    while (sent.length < 300) {
      const d = decideSend(s, 'bulk', now, p);
      if (!d.send) {
        expect(d.waitUntil.getTime()).toBeGreaterThan(now.getTime());
        now = d.waitUntil;
        continue;
      }
      sent.push(now);
      s = recordBulkSend(s, now, p, random);
      now = new Date(now.getTime() + 1);
    }
    const perDay = new Map<string, number>();
    for (const [i, at] of sent.entries()) {
      const local = localTime(at, p.timeZone);
      expect(local.minutes).toBeGreaterThanOrEqual(8 * 60);
      expect(local.minutes).toBeLessThan(20 * 60);
      perDay.set(local.day, (perDay.get(local.day) ?? 0) + 1);
      if (i === 0) continue;
      const gap = at.getTime() - sent[i - 1]!.getTime();
      expect(gap).toBeGreaterThanOrEqual(p.minGapMs);
      if (i % 20 === 0) expect(gap).toBeGreaterThanOrEqual(p.longPauseMs);
    }
    expect(Math.max(...perDay.values())).toBe(40);
    expect(perDay.size).toBeGreaterThan(7);
  });
});
