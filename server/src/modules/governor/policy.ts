// The send governor's rules, as pure functions of a connection's state, the lane, the time and
// the policy. Bulk sends (campaigns, schedules) get paced: a minimum gap plus jitter, a longer
// pause every N, a daily cap (lower while the number warms up), a send window in the company's
// time zone and a circuit breaker. Replies in a conversation (agents, the bot) are never held.
import { z } from 'zod';
import {
  DEFAULT_TIME_ZONE,
  addDays,
  daysBetween,
  localTime,
  zonedTime,
  type LocalTime,
} from '@atende/shared';

export type Lane = 'agent' | 'bulk';

export const SendPolicySchema = z.object({
  /** Least time between two bulk sends; the jitter only adds to it. */
  minGapMs: z.number().int().nonnegative(),
  /** Up to this much is added at random to each gap, so sends do not leave like a metronome. */
  jitterMs: z.number().int().nonnegative(),
  /** After this many bulk sends the next waits longPauseMs instead (0: never). */
  longPauseEvery: z.number().int().nonnegative(),
  longPauseMs: z.number().int().nonnegative(),
  /** Bulk sends per local day (0: no cap). */
  dailyCap: z.number().int().nonnegative(),
  /** The daily cap of the connection's first days (day 0, day 1 ...), while the number is new. */
  warmupCaps: z.array(z.number().int().nonnegative()),
  /** Local times (HH:MM) between which bulk sends go out; null: any time. */
  window: z
    .object({
      start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
      end: z.string().regex(/^([01]\d|2[0-4]):[0-5]\d$/),
    })
    .nullable(),
  /** The company's time zone (IANA). */
  timeZone: z.string().min(1),
  /** This many bulk sends failing in a row open the breaker (0: never). */
  breakerFailures: z.number().int().nonnegative(),
  /** How long an open breaker (failures or a disconnect) holds bulk sends. */
  breakerPauseMs: z.number().int().nonnegative(),
});
export type SendPolicy = z.infer<typeof SendPolicySchema>;

/** Per-connection overrides, as stored in send_governor.policy. */
export const PolicyOverrides = SendPolicySchema.partial();

/**
 * Defaults: the campaign settings' defaults (secondary spec §9: random interval 20 s, a longer
 * interval after 20 messages, greater interval 60 s) and our choices (docs/decisions.md).
 */
export const DEFAULT_SEND_POLICY: SendPolicy = {
  minGapMs: 20_000,
  jitterMs: 10_000,
  longPauseEvery: 20,
  longPauseMs: 60_000,
  dailyCap: 1_000,
  warmupCaps: [100, 200, 400, 700],
  window: { start: '08:00', end: '20:00' },
  timeZone: DEFAULT_TIME_ZONE,
  breakerFailures: 5,
  breakerPauseMs: 15 * 60_000,
};

export interface GovernorState {
  /** When the governor first saw the connection: the warm-up counts days from it. */
  startedAt: Date;
  lastBulkAt: Date | null;
  /** The jitter drawn for the gap after lastBulkAt. */
  jitterMs: number;
  /** Bulk sends since the last long pause. */
  sinceLongPause: number;
  /** The local day (YYYY-MM-DD) dailyCount counts. */
  day: string | null;
  dailyCount: number;
  /** Bulk sends failed in a row. */
  failures: number;
  breakerUntil: Date | null;
}

export type WaitReason = 'breaker' | 'window' | 'daily-cap' | 'warm-up' | 'long-pause' | 'gap';
export type SendDecision = { send: true } | { send: false; waitUntil: Date; reason: WaitReason };

export const newGovernorState = (now: Date): GovernorState => ({
  startedAt: now,
  lastBulkAt: null,
  jitterMs: 0,
  sinceLongPause: 0,
  day: null,
  dailyCount: 0,
  failures: 0,
  breakerUntil: null,
});

/** Whether a send in `lane` may go now, or until when it must wait and why. */
export function decideSend(
  state: GovernorState,
  lane: Lane,
  now: Date,
  policy: SendPolicy,
): SendDecision {
  if (lane === 'agent') return { send: true };
  const wait = (waitUntil: Date, reason: WaitReason): SendDecision => ({
    send: false,
    waitUntil,
    reason,
  });
  if (state.breakerUntil && state.breakerUntil > now) return wait(state.breakerUntil, 'breaker');
  const local = localTime(now, policy.timeZone);
  if (policy.window && !inWindow(local.minutes, policy.window)) {
    return wait(nextWindowStart(local, policy), 'window');
  }
  const { cap, warmingUp } = dailyCapOf(state, local.day, policy);
  const count = state.day === local.day ? state.dailyCount : 0;
  if (cap > 0 && count >= cap) {
    const tomorrow = addDays(local.day, 1);
    const at = policy.window
      ? zonedTime(tomorrow, minutesOf(policy.window.start), policy.timeZone)
      : zonedTime(tomorrow, 0, policy.timeZone);
    return wait(at, warmingUp ? 'warm-up' : 'daily-cap');
  }
  if (state.lastBulkAt) {
    const long =
      policy.longPauseEvery > 0 &&
      state.sinceLongPause >= policy.longPauseEvery &&
      policy.longPauseMs > policy.minGapMs;
    const gap = (long ? policy.longPauseMs : policy.minGapMs) + state.jitterMs;
    const at = new Date(state.lastBulkAt.getTime() + gap);
    if (at > now) return wait(at, long ? 'long-pause' : 'gap');
  }
  return { send: true };
}

/** The state after a bulk send that decideSend allowed; `random` draws the next jitter. */
export function recordBulkSend(
  state: GovernorState,
  now: Date,
  policy: SendPolicy,
  random: () => number = Math.random,
): GovernorState {
  const day = localTime(now, policy.timeZone).day;
  const afterPause = policy.longPauseEvery > 0 && state.sinceLongPause >= policy.longPauseEvery;
  return {
    ...state,
    lastBulkAt: now,
    jitterMs: Math.min(policy.jitterMs, Math.floor(random() * (policy.jitterMs + 1))),
    sinceLongPause: afterPause ? 1 : state.sinceLongPause + 1,
    day,
    dailyCount: (state.day === day ? state.dailyCount : 0) + 1,
  };
}

/** The state after a bulk send's outcome: failures in a row open the breaker. */
export function recordBulkResult(
  state: GovernorState,
  ok: boolean,
  now: Date,
  policy: SendPolicy,
): GovernorState {
  if (ok) return { ...state, failures: 0 };
  const failures = state.failures + 1;
  if (policy.breakerFailures > 0 && failures >= policy.breakerFailures) {
    return { ...openBreaker(state, now, policy), failures: 0 };
  }
  return { ...state, failures };
}

/** Opens the breaker from now (a disconnect); an already longer pause stays. */
export function openBreaker(state: GovernorState, now: Date, policy: SendPolicy): GovernorState {
  const until = new Date(now.getTime() + policy.breakerPauseMs);
  const breakerUntil =
    state.breakerUntil && state.breakerUntil > until ? state.breakerUntil : until;
  return { ...state, breakerUntil };
}

function dailyCapOf(state: GovernorState, today: string, policy: SendPolicy) {
  const age = daysBetween(localTime(state.startedAt, policy.timeZone).day, today);
  const warm = policy.warmupCaps[age];
  if (warm !== undefined && (policy.dailyCap === 0 || warm < policy.dailyCap)) {
    return { cap: warm, warmingUp: true };
  }
  return { cap: policy.dailyCap, warmingUp: false };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function inWindow(minutes: number, window: { start: string; end: string }): boolean {
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  if (start === end) return true;
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

function nextWindowStart(local: LocalTime, policy: SendPolicy): Date {
  const start = minutesOf(policy.window!.start);
  const day = local.minutes < start ? local.day : addDays(local.day, 1);
  return zonedTime(day, start, policy.timeZone);
}
