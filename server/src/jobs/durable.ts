// Durable jobs: work due at a time (a ticket timer, later a schedule, a campaign step, an
// invoice). A row of `durable_jobs` is the record; a BullMQ delayed job only triggers it on time,
// and a sweeper takes due rows itself (at start and every few seconds), so nothing is lost while
// Redis or every worker is down. A firing is (row, dueAt): it is done once, marked in the same
// transaction as the effects the job writes through `firing.tx`.
//
// A feature adds a kind and starts it in its worker:
//   export const reminderJob = defineDurableJob({ kind: 'reminder', payload: z.object({...}),
//     run: async (app, firing) => { ...write through firing.tx... } });
//   await scheduleDurable(app, reminderJob, { key: `reminder:${id}`, companyId, dueAt, payload });
//   startDurableJobs(app, [reminderJob])  // returns { close, sweep }
// Inside `run`, write to durable_jobs only through `firing.tx` (another connection would wait for
// the row this firing holds).
import type { Job, Queue, Worker } from 'bullmq';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { createQueue, startWorker } from './bullmq.js';

export const SWEEP_EVERY_MS = 5_000;
/** Firings running at once per process (sweeper and triggers together); each holds a pooled
 * connection for its lock and its effects may use another. */
export const FIRING_SLOTS = 2;
const DEFAULT_MAX_ATTEMPTS = 5;
const SWEEP_BATCH = 200;
const PRUNE_AFTER_DAYS = 30;

export interface Firing<P> {
  id: number;
  kind: string;
  key: string;
  companyId: number | null;
  payload: P;
  dueAt: Date;
  /** The same for every attempt of this firing: dedupe effects outside Postgres with it. */
  firingKey: string;
  /** The transaction holding the row; effects written here commit with the "done" mark. */
  tx: EntityManager;
}

/** A job returns nothing when done, or a later time when it finds itself not due yet. */
export type FiringOutcome = void | { rescheduleAt: Date };

export interface DurableJob<P> {
  /** Names the rows (`durable_jobs.kind`) and the trigger queue. */
  kind: string;
  payload: z.ZodType<P>;
  run: (app: AppContext, firing: Firing<P>) => Promise<FiringOutcome>;
  /** The clock deciding what is due (tests move it). */
  now?: () => Date;
  /** Attempts before the row is marked failed; a failed attempt retries after a backoff. */
  maxAttempts?: number;
}

export const defineDurableJob = <P>(job: DurableJob<P>): DurableJob<P> => job;

const clockOf = (job: DurableJob<unknown>) => job.now ?? (() => new Date());
const queueName = (kind: string) => `durable-${kind}`;
const TriggerData = z.object({ id: z.coerce.number().int().positive() });

const queues = new WeakMap<AppContext, Map<string, Queue>>();
function triggerQueue(app: AppContext, kind: string): Queue {
  let byKind = queues.get(app);
  if (!byKind) queues.set(app, (byKind = new Map()));
  let queue = byKind.get(kind);
  if (!queue) byKind.set(kind, (queue = createQueue(app, queueName(kind))));
  return queue;
}

/** Adds the delayed BullMQ job that triggers a firing; the same firing twice is one job. */
export async function triggerDurable(
  app: AppContext,
  job: DurableJob<unknown>,
  id: number,
  at: Date,
  tag = '',
): Promise<void> {
  await triggerQueue(app, job.kind).add(
    'fire',
    { id },
    {
      jobId: `${id}-${at.getTime()}${tag}`,
      delay: Math.max(0, at.getTime() - clockOf(job)().getTime()),
      removeOnComplete: true,
      removeOnFail: 1_000,
    },
  );
}

export interface ScheduleSpec<P> {
  /** Identifies the row within its kind: scheduling the same key again moves it. */
  key: string;
  companyId: number | null;
  dueAt: Date;
  payload: P;
}

/**
 * Writes (or moves) the row `(job.kind, key)` to fire at `dueAt`. A new due time is a new
 * firing; the same due time keeps a firing already done. Without `tx` the trigger is added at
 * once; inside a transaction call the returned `trigger` after commit (the sweeper would find
 * the row anyway, a few seconds later).
 */
export async function scheduleDurable<P>(
  app: AppContext,
  job: DurableJob<P>,
  spec: ScheduleSpec<P>,
  tx?: EntityManager,
): Promise<{ id: number; trigger: () => Promise<void> }> {
  const payload = job.payload.parse(spec.payload);
  const [row] = (await (tx ?? app.ds).query(
    `INSERT INTO durable_jobs (kind, key, "companyId", payload, "dueAt") VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (kind, key) DO UPDATE SET payload = EXCLUDED.payload, "dueAt" = EXCLUDED."dueAt",
       "companyId" = EXCLUDED."companyId",
       "firedAt" = CASE WHEN durable_jobs."dueAt" = EXCLUDED."dueAt"
                        THEN durable_jobs."firedAt" END,
       "failedAt" = CASE WHEN durable_jobs."dueAt" = EXCLUDED."dueAt"
                         THEN durable_jobs."failedAt" END,
       attempts = CASE WHEN durable_jobs."dueAt" = EXCLUDED."dueAt"
                       THEN durable_jobs.attempts ELSE 0 END,
       "retryAt" = NULL
     RETURNING id::int AS id`,
    [job.kind, spec.key, spec.companyId, JSON.stringify(payload), spec.dueAt],
  )) as { id: number }[];
  const id = row!.id;
  const trigger = () => triggerDurable(app, job as DurableJob<unknown>, id, spec.dueAt);
  if (!tx) await trigger();
  return { id, trigger };
}

/**
 * Writes (or moves) many rows of one kind in one statement and adds the triggers of the rows it
 * wrote in one Redis round trip. With `keepEarlier`, a row already waiting to fire at or before
 * its new time is left as it is (nothing written, no trigger): its firing finds the job not due
 * yet and the job moves it (`rescheduleAt`). A job whose `run` re-checks when it is due (the
 * ticket timers) need not be rewritten by every change that only postpones it.
 */
export async function scheduleDurableMany<P>(
  app: AppContext,
  job: DurableJob<P>,
  specs: readonly ScheduleSpec<P>[],
  options: { keepEarlier?: boolean } = {},
): Promise<number> {
  // One statement may write a row once: the last spec of a key wins.
  const byKey = new Map(specs.map((s) => [s.key, s]));
  specs = [...byKey.values()];
  if (!specs.length) return 0;
  const rows = (await app.ds.query(
    `INSERT INTO durable_jobs (kind, key, "companyId", payload, "dueAt")
     SELECT $1, x.key, x."companyId", x.payload, x."dueAt"
       FROM unnest($2::text[], $3::int[], $4::jsonb[], $5::timestamptz[])
            AS x(key, "companyId", payload, "dueAt")
     ON CONFLICT (kind, key) DO UPDATE SET payload = EXCLUDED.payload, "dueAt" = EXCLUDED."dueAt",
       "companyId" = EXCLUDED."companyId",
       "firedAt" = CASE WHEN durable_jobs."dueAt" = EXCLUDED."dueAt"
                        THEN durable_jobs."firedAt" END,
       "failedAt" = CASE WHEN durable_jobs."dueAt" = EXCLUDED."dueAt"
                         THEN durable_jobs."failedAt" END,
       attempts = CASE WHEN durable_jobs."dueAt" = EXCLUDED."dueAt"
                       THEN durable_jobs.attempts ELSE 0 END,
       "retryAt" = NULL
     WHERE NOT $6::boolean
        OR (durable_jobs."firedAt" IS NULL AND durable_jobs."failedAt" IS NULL
            AND EXCLUDED."dueAt" < durable_jobs."dueAt")
        OR ((durable_jobs."firedAt" IS NOT NULL OR durable_jobs."failedAt" IS NOT NULL)
            AND EXCLUDED."dueAt" <> durable_jobs."dueAt")
     RETURNING id::int AS id, "dueAt"`,
    [
      job.kind,
      specs.map((s) => s.key),
      specs.map((s) => s.companyId),
      specs.map((s) => JSON.stringify(job.payload.parse(s.payload))),
      specs.map((s) => s.dueAt),
      options.keepEarlier ?? false,
    ],
  )) as { id: number; dueAt: Date }[];
  if (rows.length) {
    const now = clockOf(job as DurableJob<unknown>)().getTime();
    await triggerQueue(app, job.kind).addBulk(
      rows.map((r) => {
        const at = new Date(r.dueAt).getTime();
        return {
          name: 'fire',
          data: { id: r.id },
          opts: {
            jobId: `${r.id}-${at}`,
            delay: Math.max(0, at - now),
            removeOnComplete: true,
            removeOnFail: 1_000,
          },
        };
      }),
    );
  }
  return rows.length;
}

/** Removes a row that should no longer fire. */
export async function cancelDurable(
  app: AppContext,
  job: DurableJob<unknown>,
  key: string,
  tx?: EntityManager,
): Promise<void> {
  await (tx ?? app.ds).query('DELETE FROM durable_jobs WHERE kind = $1 AND key = $2', [
    job.kind,
    key,
  ]);
}

export type FireResult = 'done' | 'rescheduled' | 'dropped' | 'failed' | 'none';

interface Row {
  id: number;
  key: string;
  companyId: number | null;
  payload: unknown;
  dueAt: Date;
  attempts: number;
}

// A small per-process semaphore: firings from triggers and the sweeper share FIRING_SLOTS.
const slots = new WeakMap<AppContext, { free: number; waiting: (() => void)[] }>();
async function withSlot<T>(app: AppContext, run: () => Promise<T>): Promise<T> {
  let s = slots.get(app);
  if (!s) slots.set(app, (s = { free: FIRING_SLOTS, waiting: [] }));
  const sem = s;
  if (sem.free > 0) sem.free--;
  else await new Promise<void>((resolve) => sem.waiting.push(resolve));
  try {
    return await run();
  } finally {
    const next = sem.waiting.shift();
    if (next) next();
    else sem.free++;
  }
}

/**
 * Takes one due row of the kind (the given one, or the earliest) with FOR UPDATE SKIP LOCKED and
 * runs it; 'none' when there is nothing to take (not due, done, or another process has it).
 */
export function fireDurable(
  app: AppContext,
  job: DurableJob<unknown>,
  id?: number,
): Promise<FireResult> {
  return withSlot(app, () => fireOne(app, job, id));
}

async function fireOne(
  app: AppContext,
  job: DurableJob<unknown>,
  id: number | undefined,
): Promise<FireResult> {
  const now = clockOf(job)();
  let taken: Row | undefined;
  let reschedule: Date | undefined;
  try {
    const result = await app.ds.transaction(async (tx): Promise<FireResult> => {
      const [row] = (await tx.query(
        `SELECT id::int AS id, key, "companyId", payload, "dueAt", attempts FROM durable_jobs
          WHERE kind = $1 AND ($2::bigint IS NULL OR id = $2)
            AND "firedAt" IS NULL AND "failedAt" IS NULL AND "dueAt" <= $3
            AND ("retryAt" IS NULL OR "retryAt" <= $3)
          ORDER BY "dueAt" LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [job.kind, id ?? null, now],
      )) as Row[];
      if (!row) return 'none';
      taken = row;
      const parsed = job.payload.safeParse(row.payload);
      if (!parsed.success) {
        logger.warn(
          { kind: job.kind, id: row.id, issues: parsed.error.issues },
          'durable job dropped: invalid payload',
        );
        await tx.query(`UPDATE durable_jobs SET "failedAt" = $2, error = $3 WHERE id = $1`, [
          row.id,
          now,
          `invalid payload: ${parsed.error.message}`.slice(0, 2000),
        ]);
        return 'dropped';
      }
      const dueAt = new Date(row.dueAt);
      const outcome = await job.run(app, {
        id: row.id,
        kind: job.kind,
        key: row.key,
        companyId: row.companyId,
        payload: parsed.data,
        dueAt,
        firingKey: `${row.id}:${dueAt.getTime()}`,
        tx,
      });
      if (outcome?.rescheduleAt) {
        reschedule = outcome.rescheduleAt;
        await tx.query(`UPDATE durable_jobs SET "dueAt" = $2, attempts = 0 WHERE id = $1`, [
          row.id,
          reschedule,
        ]);
        return 'rescheduled';
      }
      await tx.query(`UPDATE durable_jobs SET "firedAt" = $2 WHERE id = $1`, [row.id, now]);
      return 'done';
    });
    if (reschedule && taken) await triggerDurable(app, job, taken.id, reschedule);
    return result;
  } catch (err) {
    if (!taken) throw err;
    // The firing's writes rolled back; count the attempt and retry after a backoff.
    const attempts = taken.attempts + 1;
    const max = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const retryAt = new Date(now.getTime() + Math.min(300_000, 2_000 * 2 ** (attempts - 1)));
    logger.error({ err, kind: job.kind, id: taken.id, attempts }, 'durable job attempt failed');
    await app.ds.query(
      `UPDATE durable_jobs SET attempts = $2::int, error = $3, "retryAt" = $4,
              "failedAt" = CASE WHEN $2::int >= $5::int THEN $6::timestamptz END
        WHERE id = $1 AND "firedAt" IS NULL`,
      [taken.id, attempts, String(err instanceof Error ? err.message : err), retryAt, max, now],
    );
    if (attempts < max) await triggerDurable(app, job, taken.id, retryAt, `-r${attempts}`);
    return 'failed';
  }
}

/** Fires every due row of the given kinds (after a restart, or a trigger lost with Redis). */
export async function sweepDurable(
  app: AppContext,
  jobs: readonly DurableJob<unknown>[],
): Promise<number> {
  let fired = 0;
  for (const job of jobs) {
    for (let i = 0; i < SWEEP_BATCH; i++) {
      const result = await fireDurable(app, job);
      if (result === 'none') break;
      fired++;
    }
  }
  return fired;
}

/** Processes a trigger: a job whose data does not parse is logged and dropped. */
async function onTrigger(app: AppContext, job: DurableJob<unknown>, trigger: Job): Promise<void> {
  const data = TriggerData.safeParse(trigger.data);
  if (!data.success) {
    logger.warn(
      { kind: job.kind, jobId: trigger.id, issues: data.error.issues },
      'durable trigger dropped: invalid data',
    );
    return;
  }
  await fireDurable(app, job, data.data.id);
}

/**
 * Runs the kinds' triggers and the sweeper in this process (the worker role); returns what to
 * close. Sweeping also prunes rows fired more than PRUNE_AFTER_DAYS ago.
 */
export function startDurableJobs(
  app: AppContext,
  jobs: readonly DurableJob<unknown>[],
  options: { sweepEveryMs?: number } = {},
): { close: () => Promise<void>; sweep: () => Promise<number> } {
  const workers: Worker[] = jobs.map((job) =>
    startWorker(app, queueName(job.kind), (t: Job) => onTrigger(app, job, t), FIRING_SLOTS),
  );
  let sweeping: Promise<number> | undefined;
  let sweeps = 0;
  const sweep = () => {
    sweeping ??= (async () => {
      try {
        if (sweeps++ % 720 === 0) await prune(app, jobs);
        return await sweepDurable(app, jobs);
      } finally {
        sweeping = undefined;
      }
    })();
    return sweeping;
  };
  const tick = () =>
    void sweep().catch((err: unknown) => logger.error({ err }, 'durable sweep failed'));
  tick();
  const interval = setInterval(tick, options.sweepEveryMs ?? SWEEP_EVERY_MS);
  return {
    sweep,
    close: async () => {
      clearInterval(interval);
      await sweeping?.catch(() => undefined);
      await Promise.all(workers.map((w) => w.close()));
      const byKind = queues.get(app);
      for (const job of jobs) {
        await byKind?.get(job.kind)?.close();
        byKind?.delete(job.kind);
      }
    },
  };
}

async function prune(app: AppContext, jobs: readonly DurableJob<unknown>[]): Promise<void> {
  await app.ds.query(
    `DELETE FROM durable_jobs WHERE kind = ANY($1) AND "firedAt" < now() - make_interval(days => $2)`,
    [jobs.map((j) => j.kind), PRUNE_AFTER_DAYS],
  );
}
