// Numbers committed changes. Writers leave their changes in change_pending without any lock; a
// short transaction per company then moves every committed pending row into change_log with the
// next numbers, in order, holding the company's counter row only for that move. Many writers'
// changes share one move (and one commit), so a company's writers commit in parallel instead of
// queueing on the counter through each other's commit.
//
// Why the order is right: a transaction writes its changes at its end, after every row lock it
// took, under one order number drawn then ("txOrder"; its rows keep their own order by id). So a
// transaction that depends on another (waited for its lock, or began after it committed) has a
// higher order number, and any snapshot that sees it also sees the one before. A
// reader that has applied number N never sees a lower number appear later: only the mover assigns
// numbers, one company's moves are serialised by the counter row, and each commits its range at once.
import type { AppContext } from '../../context.js';
import type { WorkerStarter } from '../../jobs/bullmq.js';
import { logger } from '../../logger.js';
import type { Change, ChangeEntity, PendingChange } from './change-log.js';

/** Rows moved per transaction; a longer backlog takes several moves. */
const MOVE_LIMIT = 2000;

interface Waiter {
  ids: number[];
  done: () => void;
}

interface CompanyQueue {
  running: boolean;
  waiters: Waiter[];
  /** Payloads this process wrote, so a move need not read them back. */
  local: Map<number, Change>;
}

interface MovedRow {
  id: number;
  seq: number;
  entity: ChangeEntity;
  entityId: number;
  action: string;
  ticketBound: boolean;
  queueId: number | null;
  userIds: number[] | null;
  payload: object | null;
}

export type Publisher = (companyId: number, changes: (Change & { seq: number })[]) => void;

export class Sequencer {
  private readonly companies = new Map<number, CompanyQueue>();

  constructor(
    private readonly app: AppContext,
    private readonly publish: Publisher,
  ) {}

  /**
   * Resolves once the given committed changes are numbered and published (by this process or, for
   * rows another process moved first, by that one). Never rejects: a change whose move failed stays
   * pending and the sweeper numbers it.
   */
  sequence(companyId: number, pending: PendingChange[]): Promise<void> {
    if (!pending.length) return Promise.resolve();
    const queue = this.queueOf(companyId);
    for (const p of pending) queue.local.set(p.pendingId, p);
    return new Promise((done) => {
      queue.waiters.push({ ids: pending.map((p) => p.pendingId), done });
      if (!queue.running) void this.run(companyId, queue);
    });
  }

  /** Numbers whatever is pending for the company (rows a crashed process left behind). */
  sweep(companyId: number): Promise<void> {
    const queue = this.queueOf(companyId);
    return new Promise((done) => {
      queue.waiters.push({ ids: [], done });
      if (!queue.running) void this.run(companyId, queue);
    });
  }

  private queueOf(companyId: number): CompanyQueue {
    let queue = this.companies.get(companyId);
    if (!queue) {
      queue = { running: false, waiters: [], local: new Map() };
      this.companies.set(companyId, queue);
    }
    return queue;
  }

  /** Moves until no waiter is left; waiters that arrive during a move join the next one. */
  private async run(companyId: number, queue: CompanyQueue): Promise<void> {
    queue.running = true;
    try {
      while (queue.waiters.length) {
        const batch = queue.waiters.splice(0);
        try {
          while ((await this.move(companyId, queue)) === MOVE_LIMIT);
        } catch (err) {
          logger.error({ err, companyId }, 'change sequencing failed; the sweeper will retry');
        }
        // Every row of the batch had committed before the move began: it is numbered now (here
        // or by another process), or left for the sweeper after an error.
        for (const waiter of batch) {
          for (const id of waiter.ids) queue.local.delete(id);
          waiter.done();
        }
      }
    } finally {
      queue.running = false;
      if (!queue.local.size) this.companies.delete(companyId);
    }
  }

  private async move(companyId: number, queue: CompanyQueue): Promise<number> {
    const rows = await this.moveRows(companyId, [...queue.local.keys()]);
    this.publish(
      companyId,
      rows.map((r) => {
        const local = queue.local.get(r.id);
        queue.local.delete(r.id);
        if (local) return { ...local, seq: r.seq };
        // A row another process wrote: its payload was typed by its writer.
        return {
          entity: r.entity,
          entityId: r.entityId,
          action: r.action,
          payload: r.payload ?? {},
          ...(r.ticketBound && { ticketQueueId: r.queueId }),
          ...(r.userIds && { userIds: r.userIds }),
          seq: r.seq,
        } as Change & { seq: number };
      }),
    );
    return rows.length;
  }

  /**
   * One round trip: the counter row lock, then (with a snapshot taken after it) the move, then
   * the commit, as one multi-statement query. Only integers are inlined.
   */
  private async moveRows(companyId: number, localIds: number[]): Promise<MovedRow[]> {
    const ints = [companyId, ...localIds];
    if (!ints.every(Number.isSafeInteger)) throw new Error('change ids must be integers');
    const sql = `BEGIN;
      INSERT INTO change_counters ("companyId") VALUES (${companyId})
      ON CONFLICT ("companyId") DO UPDATE SET seq = change_counters.seq;
      WITH base AS (SELECT seq FROM change_counters WHERE "companyId" = ${companyId}),
      moved AS (
        DELETE FROM change_pending WHERE id IN (
          SELECT id FROM change_pending WHERE "companyId" = ${companyId} ORDER BY "txOrder", id
           LIMIT ${MOVE_LIMIT})
        RETURNING *),
      numbered AS (
        SELECT moved.*, base.seq + row_number() OVER (ORDER BY "txOrder", id) AS seq
          FROM moved CROSS JOIN base),
      logged AS (
        INSERT INTO change_log ("companyId", seq, entity, "entityId", action, "ticketBound",
               "queueId", "userIds", payload, "createdAt")
        SELECT "companyId", seq, entity, "entityId", action, "ticketBound", "queueId", "userIds",
               payload, "createdAt" FROM numbered),
      counted AS (
        UPDATE change_counters SET seq = seq + (SELECT count(*) FROM moved)
         WHERE "companyId" = ${companyId})
      SELECT id::float8 AS id, seq::float8 AS seq, entity, "entityId", action, "ticketBound",
             "queueId", "userIds", CASE WHEN id = ANY('{${localIds.join(',')}}'::bigint[]) THEN NULL
                             ELSE payload END AS payload
        FROM numbered ORDER BY seq;
      COMMIT;`;
    const runner = this.app.ds.createQueryRunner();
    const client = (await runner.connect()) as {
      query: (sql: string) => Promise<{ rows: unknown[] }[]>;
    };
    try {
      const results = await client.query(sql);
      return results[2]!.rows as MovedRow[];
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }
}

const sequencers = new WeakMap<AppContext, Sequencer>();

export function sequencerOf(app: AppContext, publish: Publisher): Sequencer {
  let sequencer = sequencers.get(app);
  if (!sequencer) sequencers.set(app, (sequencer = new Sequencer(app, publish)));
  return sequencer;
}

/** Rows left pending this long are taken to be a crashed writer's. */
const ORPHAN_AFTER_MS = 2_000;
const SWEEP_EVERY_MS = 2_000;

/** Numbers what crashed writers left pending (at start, then every few seconds). */
export function startChangeSweeper(sequencerFor: (app: AppContext) => Sequencer): WorkerStarter {
  return async (app: AppContext) => {
    const sequencer = sequencerFor(app);
    const sweep = async () => {
      const rows = (await app.ds.query(
        `SELECT DISTINCT "companyId" FROM change_pending
          WHERE "createdAt" < now() - ($1::float8 * interval '1 millisecond')`,
        [ORPHAN_AFTER_MS],
      )) as { companyId: number }[];
      for (const r of rows) await sequencer.sweep(r.companyId);
    };
    const run = () =>
      void sweep().catch((err: unknown) => logger.warn({ err }, 'change sweep failed'));
    run();
    const timer = setInterval(run, SWEEP_EVERY_MS);
    timer.unref();
    return { close: async () => clearInterval(timer) };
  };
}
