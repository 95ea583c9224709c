// The write-ahead inbox of a WhatsApp session. Baileys sends WhatsApp's delivery receipt before
// it hands us a message, so from then on the message exists only in our memory: the session
// appends every event to session_inbox first (a few events per INSERT), handles the rows in id
// order, and each handler deletes its row in the transaction that stores the event's effect. A
// worker that takes a connection's lease starts with the rows its predecessor left. An event that
// fails deterministically is moved to session_dead_letters at once; a database outage is waited out.
import type { DataSource, EntityManager } from 'typeorm';
import type { ConnectionRef, InboxEntry } from './hooks.js';
import type { PortEvent, PortEventName } from './port.js';

/** Events that carry customers' data and go through the inbox; connection status does not. */
export const INBOX_EVENTS: ReadonlySet<PortEventName> = new Set([
  'message',
  'ack',
  'edit',
  'revoke',
  'reaction',
  'contacts',
]);

/** Rows read from the inbox per query. */
export const INBOX_PAGE = 500;
/** Events written per INSERT at most. */
export const APPEND_BATCH = 1000;

export interface InboxRow {
  id: string;
  event: PortEvent;
  receivedAt: Date;
}

/** A data source, a transaction's manager, or a plain connection (the inbox writer's). */
type Queryable =
  | Pick<DataSource | EntityManager, 'query'>
  | { query(sql: string, params?: unknown[]): Promise<unknown> };

const byId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** Appends events in one statement (and one commit); their ids, in the order given. */
export async function appendInbox(
  db: Queryable,
  ref: ConnectionRef,
  events: PortEvent[],
): Promise<string[]> {
  const rows = (await db.query(
    `INSERT INTO session_inbox ("whatsappId", "companyId", event)
     SELECT $1, $2, e::json FROM unnest($3::text[]) WITH ORDINALITY AS u(e, n) ORDER BY n
     RETURNING id`,
    [ref.whatsappId, ref.companyId, events.map((e) => JSON.stringify(e))],
  )) as { id: string }[];
  // One statement draws its ids in the order of its rows.
  return rows.map((r) => String(r.id)).sort(byId);
}

/** The oldest rows of a connection's inbox. */
export async function readInbox(
  db: Queryable,
  whatsappId: number,
  limit = INBOX_PAGE,
): Promise<InboxRow[]> {
  const rows = (await db.query(
    `SELECT id, event, "receivedAt" FROM session_inbox WHERE "whatsappId" = $1 ORDER BY id LIMIT $2`,
    [whatsappId, limit],
  )) as { id: string; event: PortEvent; receivedAt: Date }[];
  return rows.map((r) => ({ ...r, id: String(r.id) }));
}

/**
 * Deletes the entry's row inside `tx`, the transaction that stores the event's effect. A handler
 * whose transaction rolls back afterwards must settle again in the one that commits, or throw.
 */
export async function settleInbox(tx: Queryable, entry: InboxEntry | undefined): Promise<void> {
  if (!entry) return;
  await tx.query(`DELETE FROM session_inbox WHERE id = $1`, [entry.id]);
  entry.settled = true;
}

/**
 * The event with every NUL character removed from its strings (Postgres text cannot hold one;
 * WhatsApp shows nothing for it), and whether there was any.
 */
export function stripNul<T>(value: T): { value: T; changed: boolean } {
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (!v.includes('\u0000')) return v;
      changed = true;
      return v.replaceAll('\u0000', '');
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  const result = walk(value) as T;
  return { value: changed ? result : value, changed };
}

/** Postgres SQLSTATEs that say "try again": connection, resources, shutdown, conflicts. */
const TRANSIENT_STATES = /^(08|53|57P0|40001|40P01|55P03|58)/;
const TRANSIENT_NODE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether the error itself names a passing condition (without asking the database). */
export function transientByCode(err: unknown): boolean {
  const code = errorCode(err);
  if (code && (TRANSIENT_STATES.test(code) || TRANSIENT_NODE.has(code))) return true;
  const message = err instanceof Error ? err.message : String(err);
  // pg pool and ioredis failures that carry no code.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|MaxRetriesPerRequest|Stream isn't writeable/i.test(
    message,
  );
}

/**
 * A failure is transient when its code says so or when the database does not answer now; any
 * other failure is deterministic (the same event fails the same way) and the event is poison.
 */
export async function isTransient(ds: DataSource, err: unknown): Promise<boolean> {
  if (transientByCode(err)) return true;
  const probe = ds.query('SELECT 1').then(
    () => true,
    () => false,
  );
  const timeout = new Promise<boolean>((resolve) =>
    setTimeout(() => resolve(false), 2_000).unref(),
  );
  return !(await Promise.race([probe, timeout]));
}

/** Moves an inbox row to the dead letters, in one transaction. */
export async function deadLetter(
  ds: DataSource,
  ref: ConnectionRef,
  row: InboxRow,
  err: unknown,
  attempts: number,
): Promise<void> {
  const message = (err instanceof Error ? err.message : String(err)).replaceAll('\u0000', '');
  await ds.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO session_dead_letters ("companyId", "whatsappId", "inboxId", "eventName", event,
              error, "errorCode", attempts, "receivedAt")
       VALUES ($1, $2, $3, $4, $5::json, $6, $7, $8, $9)
       ON CONFLICT ("whatsappId", "inboxId") DO NOTHING`,
      [
        ref.companyId,
        ref.whatsappId,
        row.id,
        row.event.name,
        JSON.stringify(row.event),
        message.slice(0, 2_000),
        errorCode(err)?.slice(0, 40) ?? null,
        attempts,
        row.receivedAt,
      ],
    );
    await tx.query(`DELETE FROM session_inbox WHERE id = $1`, [row.id]);
  });
}

/**
 * How long events wait between reaching the session and being durable in the inbox, in ms (the
 * last 10,000 appends of this process), for docs/decisions.md and the tests.
 */
export const appendLatency: number[] = [];
export function recordAppendLatency(ms: number): void {
  appendLatency.push(ms);
  if (appendLatency.length > 10_000) appendLatency.splice(0, appendLatency.length - 10_000);
}
