import type { DataSource, EntityManager } from 'typeorm';

export type ChangeEntity = 'ticket' | 'message' | 'contact' | 'tag' | 'note';

export interface Change {
  entity: ChangeEntity;
  entityId: number;
  action: string;
  payload: object;
  /**
   * Set for changes bound to a ticket (the ticket itself, its messages, notes): only users who
   * may see a ticket of that queue read them. `null` means a ticket without a queue.
   */
  ticketQueueId?: number | null;
}

export interface RecordedChange extends Change {
  seq: number;
}

type Db = DataSource | EntityManager;

/**
 * Appends changes to the company's log and returns them with their numbers. Must run inside
 * the transaction that made the change: the counter row stays locked until commit, so numbers
 * of one company are gap-free and become visible in order.
 */
export async function recordChanges(
  db: EntityManager,
  companyId: number,
  changes: Change[],
): Promise<RecordedChange[]> {
  if (changes.length === 0) return [];
  const [row] = (await db.query(
    `INSERT INTO change_counters ("companyId", seq) VALUES ($1, $2)
     ON CONFLICT ("companyId") DO UPDATE SET seq = change_counters.seq + EXCLUDED.seq
     RETURNING seq::float8 AS seq`,
    [companyId, changes.length],
  )) as { seq: number }[];
  const first = row!.seq - changes.length + 1;
  const recorded = changes.map((c, i) => ({ ...c, seq: first + i }));
  await db.query(
    `INSERT INTO change_log ("companyId", seq, entity, "entityId", action, "ticketBound", "queueId", payload)
     SELECT $1, x.seq, x.entity, x."entityId", x.action, x."ticketBound", x."queueId", x.payload
       FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, entity text, "entityId" int,
         action text, "ticketBound" boolean, "queueId" int, payload jsonb)`,
    [
      companyId,
      JSON.stringify(
        recorded.map((c) => ({
          seq: c.seq,
          entity: c.entity,
          entityId: c.entityId,
          action: c.action,
          ticketBound: c.ticketQueueId !== undefined,
          queueId: c.ticketQueueId ?? null,
          payload: c.payload,
        })),
      ),
    ],
  );
  return recorded;
}

export interface FeedViewer {
  admin: boolean;
  queueIds: readonly number[];
  allTicket: boolean;
}

export interface FeedPage {
  changes: {
    seq: number;
    entity: ChangeEntity;
    entityId: number;
    action: string;
    payload: unknown;
  }[];
  hasMore: boolean;
  last: number;
}

/**
 * The changes after `after`, in order, that the viewer may see. `last` is the number of the last
 * row scanned (seen or not), so a client that stores it never rereads what it skipped.
 */
export async function readChanges(
  db: Db,
  companyId: number,
  after: number,
  limit: number,
  viewer: FeedViewer,
): Promise<FeedPage | { resetRequired: true }> {
  const [counter] = (await db.query(
    `SELECT seq::float8 AS seq, "prunedThrough"::float8 AS "prunedThrough"
       FROM change_counters WHERE "companyId" = $1`,
    [companyId],
  )) as { seq: number; prunedThrough: number }[];
  if (counter && after < counter.prunedThrough) return { resetRequired: true };
  if (counter && after > counter.seq) return { resetRequired: true };
  const rows = (await db.query(
    `SELECT seq::float8 AS seq, entity, "entityId", action, "ticketBound", "queueId", payload
       FROM change_log WHERE "companyId" = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [companyId, after, limit],
  )) as {
    seq: number;
    entity: ChangeEntity;
    entityId: number;
    action: string;
    ticketBound: boolean;
    queueId: number | null;
    payload: unknown;
  }[];
  const visible = rows.filter((r) => {
    if (!r.ticketBound || viewer.admin) return true;
    return r.queueId == null ? viewer.allTicket : viewer.queueIds.includes(r.queueId);
  });
  return {
    changes: visible.map(({ seq, entity, entityId, action, payload }) => ({
      seq,
      entity,
      entityId,
      action,
      payload,
    })),
    hasMore: rows.length === limit,
    last: rows.length ? rows[rows.length - 1]!.seq : after,
  };
}

/** Drops log rows older than `olderThanMs` and remembers how far the log was pruned. */
export async function pruneChanges(db: DataSource, olderThanMs: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = (await tx.query(
      `WITH gone AS (
         DELETE FROM change_log WHERE "createdAt" < now() - ($1::float8 * interval '1 millisecond')
         RETURNING "companyId", seq)
       SELECT "companyId", max(seq)::float8 AS upto, count(*)::int AS n FROM gone GROUP BY 1`,
      [olderThanMs],
    )) as { companyId: number; upto: number; n: number }[];
    for (const r of rows) {
      await tx.query(
        `UPDATE change_counters SET "prunedThrough" = GREATEST("prunedThrough", $2)
          WHERE "companyId" = $1`,
        [r.companyId, r.upto],
      );
    }
    return rows.reduce((sum, r) => sum + r.n, 0);
  });
}
