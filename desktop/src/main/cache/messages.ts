import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type { EntityData, OptimisticMessage } from '../core/types.js';

/** A cached message: the server's (`id` set) or an optimistic reply awaiting its ack. */
export type CachedMessage = EntityData & { key: number; pending: boolean };

interface MessageRow {
  key: number;
  id: number | null;
  data: string;
}

const toMessage = (row: MessageRow): CachedMessage => ({
  ...(JSON.parse(row.data) as EntityData),
  key: row.key,
  pending: row.id === null,
});

/** `/media/<file>` of a media link, absolute and signed (`?c=&exp=&sig=`) or not. */
const MEDIA_LINK = /^(?:https?:\/\/[^/]+)?(\/media\/[^/?#]+)(?:[?#].*)?$/;
const mediaPathOf = (url: string): string => MEDIA_LINK.exec(url)?.[1] ?? url;

/**
 * Inserts or replaces the server's message. One carrying a `clientId` takes over the optimistic
 * row of that reply (same key), so a reply is shown once whether its ack or its event comes first.
 */
export function upsertMessage(db: Database, m: EntityData): void {
  const clientId = typeof m.clientId === 'string' ? m.clientId : null;
  const values = {
    id: m.id,
    clientId,
    ticketId: typeof m.ticketId === 'number' ? m.ticketId : 0,
    createdAt: typeof m.createdAt === 'string' ? m.createdAt : '',
    body: typeof m.body === 'string' ? m.body : '',
    fromMe: m.fromMe === true ? 1 : 0,
    // Kept as the server path (`/media/<file>`), without a signed link's origin and query, so the
    // media cache finds the message of a file (messageOfMedia).
    mediaUrl: typeof m.mediaUrl === 'string' ? mediaPathOf(m.mediaUrl) : null,
    data: JSON.stringify(m),
  };
  // Most messages (the customers') have no clientId: one statement, keyed by the server id.
  const byClient = clientId
    ? (stmt(db, `SELECT key FROM messages WHERE clientId = ?`).get(clientId) as
        { key: number } | undefined)
    : undefined;
  if (!byClient) {
    stmt(
      db,
      `INSERT INTO messages (id, clientId, ticketId, createdAt, body, fromMe, mediaUrl, data)
       VALUES (@id, @clientId, @ticketId, @createdAt, @body, @fromMe, @mediaUrl, @data)
       ON CONFLICT (id) DO UPDATE SET clientId = COALESCE(excluded.clientId, clientId),
         ticketId = excluded.ticketId, createdAt = excluded.createdAt, body = excluded.body,
         fromMe = excluded.fromMe, mediaUrl = excluded.mediaUrl, data = excluded.data`,
    ).run(values);
    return;
  }
  const byId = stmt(db, `SELECT key FROM messages WHERE id = ?`).get(m.id) as
    { key: number } | undefined;
  if (byId && byId.key !== byClient.key) {
    stmt(db, `DELETE FROM messages WHERE key = ?`).run(byClient.key);
  }
  stmt(
    db,
    `UPDATE messages SET id = @id, clientId = COALESCE(@clientId, clientId), ticketId = @ticketId,
       createdAt = @createdAt, body = @body, fromMe = @fromMe, mediaUrl = @mediaUrl, data = @data
     WHERE key = @key`,
  ).run({ ...values, key: byId?.key ?? byClient.key });
}

export function insertOptimistic(db: Database, m: OptimisticMessage): void {
  stmt(
    db,
    `INSERT INTO messages (id, clientId, ticketId, createdAt, body, fromMe, data)
     VALUES (NULL, ?, ?, ?, ?, 1, ?)`,
  ).run(m.clientId, m.ticketId, m.createdAt, m.body, JSON.stringify(m));
}

export function deleteMessage(db: Database, id: number): void {
  stmt(db, `DELETE FROM messages WHERE id = ?`).run(id);
}

export function deleteOptimistic(db: Database, clientId: string): void {
  stmt(db, `DELETE FROM messages WHERE clientId = ? AND id IS NULL`).run(clientId);
}

export interface MessagePageOptions {
  limit?: number;
  /** Keyset: the oldest message of the page already shown. */
  before?: { createdAt: string; key: number };
}

/** A page of a ticket's messages, newest first (the chat scrolls up for older ones). */
export function messagesPage(
  db: Database,
  ticketId: number,
  options: MessagePageOptions = {},
): CachedMessage[] {
  const limit = options.limit ?? 50;
  const rows = options.before
    ? stmt(
        db,
        `SELECT key, id, data FROM messages
            WHERE ticketId = ? AND (createdAt, key) < (?, ?)
            ORDER BY createdAt DESC, key DESC LIMIT ?`,
      ).all(ticketId, options.before.createdAt, options.before.key, limit)
    : stmt(
        db,
        `SELECT key, id, data FROM messages WHERE ticketId = ?
            ORDER BY createdAt DESC, key DESC LIMIT ?`,
      ).all(ticketId, limit);
  return (rows as MessageRow[]).map(toMessage);
}

export function countMessages(db: Database, ticketId?: number): number {
  const row = (
    ticketId === undefined
      ? stmt(db, `SELECT count(*) AS n FROM messages`).get()
      : stmt(db, `SELECT count(*) AS n FROM messages WHERE ticketId = ?`).get(ticketId)
  ) as { n: number };
  return row.n;
}

/** The cached message that carries this media URL (its newest copy), if any. */
export function messageOfMedia(
  db: Database,
  mediaUrl: string,
): { key: number; ticketId: number } | null {
  const row = stmt(
    db,
    `SELECT key, ticketId FROM messages WHERE mediaUrl = ? ORDER BY key DESC LIMIT 1`,
  ).get(mediaUrl) as { key: number; ticketId: number } | undefined;
  return row ?? null;
}
