// The send governor's state per connection lives in Postgres (send_governor), so every process
// and every outbound path sees the same gap, counts and breaker. A bulk send takes its turn in a
// transaction holding the connection's row: decided and recorded together, before it leaves.
import type { EntityManager } from 'typeorm';
import { TIME_ZONE_SETTING, knownTimeZone } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { logger } from '../../logger.js';
import type { ConnectionRef, SessionEventHandler } from '../../whatsapp/hooks.js';
import {
  DEFAULT_SEND_POLICY,
  PolicyOverrides,
  SendPolicySchema,
  decideSend,
  openBreaker,
  recordBulkResult,
  recordBulkSend,
  type GovernorState,
  type SendDecision,
  type SendPolicy,
} from './policy.js';

/** The governor's time: tests inject one that they move (see setSendClock). */
export interface SendClock {
  now(): Date;
  /** Resolves after `ms` of this clock; rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realClock: SendClock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }),
};

const clocks = new WeakMap<AppContext, SendClock>();
export const sendClock = (app: AppContext): SendClock => clocks.get(app) ?? realClock;
/** Replaces the governor's clock of this app (tests); `undefined` restores the real one. */
export function setSendClock(app: AppContext, clock: SendClock | undefined): void {
  if (clock) clocks.set(app, clock);
  else clocks.delete(app);
}

/** A send_governor row: the connection's state plus its company and policy overrides. */
type Row = GovernorState & { companyId: number; policy: unknown };

const stateOf = (row: Row): GovernorState => ({
  startedAt: new Date(row.startedAt),
  lastBulkAt: row.lastBulkAt && new Date(row.lastBulkAt),
  jitterMs: row.jitterMs,
  sinceLongPause: row.sinceLongPause,
  day: row.day,
  dailyCount: row.dailyCount,
  failures: row.failures,
  breakerUntil: row.breakerUntil && new Date(row.breakerUntil),
});

async function policyOf(app: AppContext, row: Row): Promise<SendPolicy> {
  const zone = await app.settings.get(row.companyId, TIME_ZONE_SETTING);
  const overrides = PolicyOverrides.safeParse(row.policy);
  if (!overrides.success) logger.warn({ issues: overrides.error.issues }, 'send policy ignored');
  return SendPolicySchema.parse({
    ...DEFAULT_SEND_POLICY,
    ...(zone && knownTimeZone(zone) && { timeZone: zone }),
    ...(overrides.success && overrides.data),
  });
}

/** Runs `change` on the connection's state, its row created and locked, and writes the result. */
async function withState<T>(
  app: AppContext,
  ref: ConnectionRef,
  now: Date,
  change: (state: GovernorState, policy: SendPolicy) => { state?: GovernorState; answer: T },
): Promise<T> {
  return app.ds.transaction(async (tx) => {
    const row = await lockRow(tx, ref, now);
    const { state, answer } = change(stateOf(row), await policyOf(app, row));
    if (state) await saveState(tx, ref.whatsappId, state);
    return answer;
  });
}

async function lockRow(tx: EntityManager, ref: ConnectionRef, now: Date): Promise<Row> {
  await tx.query(
    `INSERT INTO send_governor ("whatsappId", "companyId", "startedAt") VALUES ($1, $2, $3)
     ON CONFLICT ("whatsappId") DO NOTHING`,
    [ref.whatsappId, ref.companyId, now],
  );
  const [row] = (await tx.query(
    `SELECT "companyId", policy, "startedAt", "lastBulkAt", "jitterMs", "sinceLongPause", day,
            "dailyCount", failures, "breakerUntil"
       FROM send_governor WHERE "whatsappId" = $1 FOR UPDATE`,
    [ref.whatsappId],
  )) as Row[];
  return row!;
}

async function saveState(tx: EntityManager, whatsappId: number, s: GovernorState): Promise<void> {
  await tx.query(
    `UPDATE send_governor SET "lastBulkAt" = $2, "jitterMs" = $3, "sinceLongPause" = $4, day = $5,
            "dailyCount" = $6, failures = $7, "breakerUntil" = $8, "updatedAt" = now()
      WHERE "whatsappId" = $1`,
    [
      whatsappId,
      s.lastBulkAt,
      s.jitterMs,
      s.sinceLongPause,
      s.day,
      s.dailyCount,
      s.failures,
      s.breakerUntil,
    ],
  );
}

/**
 * Asks whether a bulk send may leave now. When it may, the send is recorded at once (the gap
 * and the counts hold even if the send itself is slow or fails).
 */
export function takeBulkTurn(
  app: AppContext,
  ref: ConnectionRef,
  now: Date,
): Promise<SendDecision> {
  return withState(app, ref, now, (state, policy) => {
    const decision = decideSend(state, 'bulk', now, policy);
    return {
      answer: decision,
      ...(decision.send && { state: recordBulkSend(state, now, policy) }),
    };
  });
}

/** Records how a bulk send went: failures in a row open the breaker. */
export async function recordBulkOutcome(
  app: AppContext,
  ref: ConnectionRef,
  ok: boolean,
  now: Date,
): Promise<void> {
  await withState(app, ref, now, (state, policy) => {
    const next = recordBulkResult(state, ok, now, policy);
    if (next.breakerUntil !== state.breakerUntil) {
      logger.warn({ whatsappId: ref.whatsappId, until: next.breakerUntil }, 'bulk breaker open');
    }
    return { state: next, answer: undefined };
  });
}

/** Opens the connection's breaker from now: bulk sends pause, replies go on. */
export async function tripBreaker(app: AppContext, ref: ConnectionRef, now: Date): Promise<void> {
  await withState(app, ref, now, (state, policy) => ({
    state: openBreaker(state, now, policy),
    answer: undefined,
  }));
}

/** Sets this connection's overrides of the default policy (campaign settings, tests). */
export async function setSendPolicy(
  app: AppContext,
  ref: ConnectionRef,
  overrides: Partial<SendPolicy>,
): Promise<void> {
  const parsed = PolicyOverrides.parse(overrides);
  await app.ds.transaction(async (tx) => {
    await lockRow(tx, ref, sendClock(app).now());
    await tx.query(`UPDATE send_governor SET policy = $2 WHERE "whatsappId" = $1`, [
      ref.whatsappId,
      JSON.stringify(parsed),
    ]);
  });
}

/** A lost connection opens the breaker: after a drop, bulk sending waits before it resumes. */
export const breakOnDisconnect: SessionEventHandler = async (app, connection, event) => {
  if (event.name !== 'connection') return;
  const { status } = event.payload;
  if (status === 'DISCONNECTED' || status === 'TIMEOUT') {
    await tripBreaker(app, connection, sendClock(app).now());
  }
};
