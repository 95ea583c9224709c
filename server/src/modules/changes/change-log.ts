import type { DataSource, EntityManager } from 'typeorm';
import type { ChangeEntity, ChangePayload, FeedPageAnswer } from '@atende/shared';
import type { DomainEventInput } from './domain-events.js';

export type { ChangeEntity } from '@atende/shared';

export interface ChangeOf<E extends ChangeEntity> {
  entity: E;
  entityId: number;
  action: string;
  /** What the entity's socket event carries (`CHANGE_PAYLOADS`), without the feed number. */
  payload: ChangePayload<E>;
  /**
   * Set for changes bound to a ticket (the ticket itself, its messages, notes): only users who
   * may see a ticket of that queue read them. `null` means a ticket without a queue.
   */
  ticketQueueId?: number | null;
  /**
   * Set for changes only some users may see (an internal chat's: its members): the feed hands
   * them to these users only and their socket event goes to these users' rooms.
   */
  userIds?: number[];
}

/** One change of the feed; its payload is typed by its entity's event schema. */
export type Change = { [E in ChangeEntity]: ChangeOf<E> }[ChangeEntity];

type Db = DataSource | EntityManager;

/**
 * What a writer's transaction collects: its change-feed rows and the domain events other parts
 * react to (`domain-events.ts`); both are written before it commits.
 */
export type ChangeList = Change[] & { events: DomainEventInput[] };

export const newChangeList = (): ChangeList => Object.assign([] as Change[], { events: [] });

/** A change written by a transaction and not numbered yet (see sequencer.ts). */
export type PendingChange = Change & { pendingId: number };

/**
 * Writes changes to the company's pending list inside the transaction that made them. No lock
 * is taken: after commit the sequencer numbers them (gap-free, in the order they became visible).
 */
export async function recordChanges(
  db: EntityManager,
  companyId: number,
  changes: Change[],
): Promise<PendingChange[]> {
  if (changes.length === 0) return [];
  const rows = (await db.query(pendingInsertSql('$1', '$2'), [
    companyId,
    pendingJson(changes),
  ])) as { id: number }[];
  return withPendingIds(changes, rows);
}

/**
 * The INSERT of pending changes; `company` and `json` are placeholders or safe literals, `before`
 * more common table expressions (each followed by a comma) to run in the same statement.
 */
export const pendingInsertSql = (company: string, json: string, before = '') =>
  `WITH ${before}tx AS (SELECT nextval('change_pending_id_seq') AS o)
   INSERT INTO change_pending ("companyId", "txOrder", entity, "entityId", action, "ticketBound",
          "queueId", "userIds", payload)
   SELECT ${company}, tx.o, x.entity, x."entityId", x.action, x."ticketBound", x."queueId",
          x."userIds", x.payload
     FROM tx, jsonb_to_recordset(${json}::jsonb) AS x(n int, entity text, "entityId" int,
       action text, "ticketBound" boolean, "queueId" int, "userIds" int[], payload jsonb)
    ORDER BY x.n
   RETURNING id::float8 AS id`;

export const pendingJson = (changes: Change[]) =>
  JSON.stringify(
    changes.map((c, n) => ({
      n,
      entity: c.entity,
      entityId: c.entityId,
      action: c.action,
      ticketBound: c.ticketQueueId !== undefined,
      queueId: c.ticketQueueId ?? null,
      userIds: c.userIds ?? null,
      payload: c.payload,
    })),
  );

/** Ids come from one sequence in insertion order, so sorting restores the changes' order. */
export function withPendingIds(changes: Change[], rows: { id: number }[]): PendingChange[] {
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  return changes.map((c, i) => ({ ...c, pendingId: ids[i]! }));
}

export interface FeedViewer {
  /** The user reading: changes with member ids (`userIds`) are theirs only if listed. */
  userId: number;
  admin: boolean;
  queueIds: readonly number[];
  allTicket: boolean;
}

/** A page of the feed (`feedPage` in `shared/src/events`), `head` included. */
export type FeedPage = FeedPageAnswer & { head: number };

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
): Promise<FeedPage | { resetRequired: true; head: number }> {
  const [counter] = (await db.query(
    `SELECT seq::float8 AS seq, "prunedThrough"::float8 AS "prunedThrough"
       FROM change_counters WHERE "companyId" = $1`,
    [companyId],
  )) as { seq: number; prunedThrough: number }[];
  // `head` tells a client that resyncs fully where to resume the feed from.
  if (counter && (after < counter.prunedThrough || after > counter.seq)) {
    return { resetRequired: true, head: counter.seq };
  }
  const rows = (await db.query(
    `SELECT seq::float8 AS seq, entity, "entityId", action, "ticketBound", "queueId", "userIds",
            payload
       FROM change_log WHERE "companyId" = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [companyId, after, limit],
  )) as {
    seq: number;
    entity: ChangeEntity;
    entityId: number;
    action: string;
    ticketBound: boolean;
    queueId: number | null;
    userIds: number[] | null;
    payload: unknown;
  }[];
  const visible = rows.filter((r) => {
    // Members' changes (internal chat) are theirs alone, whatever the profile.
    if (r.userIds) return r.userIds.includes(viewer.userId);
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
    head: Math.max(counter?.seq ?? 0, rows.length ? rows[rows.length - 1]!.seq : 0),
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
