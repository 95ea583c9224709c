import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type { EntityData } from '../core/types.js';

/** Tickets, contacts, tags and quick messages: a row of indexed columns plus the JSON as given. */

const str = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : value == null ? fallback : String(value);
const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

export const parseData = (row: { data: string }): EntityData => JSON.parse(row.data) as EntityData;

export function upsertTicket(db: Database, t: EntityData): void {
  stmt(
    db,
    `INSERT INTO tickets (id, status, userId, queueId, contactId, unread, updatedAt, data)
     VALUES (@id, @status, @userId, @queueId, @contactId, @unread, @updatedAt, @data)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, userId = excluded.userId,
       queueId = excluded.queueId, contactId = excluded.contactId, unread = excluded.unread,
       updatedAt = excluded.updatedAt, data = excluded.data`,
  ).run({
    id: t.id,
    status: str(t.status, 'pending'),
    userId: int(t.userId),
    queueId: int(t.queueId),
    contactId: int(t.contactId),
    unread: int(t.unreadMessages) ?? 0,
    updatedAt: str(t.updatedAt),
    data: JSON.stringify(t),
  });
}

/** Removes a ticket and its messages; unsent replies stay with their outbox entries. */
export function deleteTicket(db: Database, id: number): void {
  stmt(db, `DELETE FROM messages WHERE ticketId = ? AND id IS NOT NULL`).run(id);
  stmt(db, `DELETE FROM tickets WHERE id = ?`).run(id);
}

export function getTicket(db: Database, id: number): EntityData | null {
  const row = stmt(db, `SELECT data FROM tickets WHERE id = ?`).get(id) as
    { data: string } | undefined;
  return row ? parseData(row) : null;
}

export interface TicketListOptions {
  status?: string;
  limit?: number;
  /** Keyset: the last ticket of the previous page. */
  after?: { updatedAt: string; id: number };
}

/** Most recently updated first, as the ticket lists show them. */
export function listTickets(db: Database, options: TicketListOptions = {}): EntityData[] {
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: options.limit ?? 50 };
  if (options.status) {
    where.push('status = @status');
    params.status = options.status;
  }
  if (options.after) {
    where.push('(updatedAt, id) < (@updatedAt, @id)');
    Object.assign(params, options.after);
  }
  const rows = stmt(
    db,
    `SELECT data FROM tickets ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY updatedAt DESC, id DESC LIMIT @limit`,
  ).all(params) as { data: string }[];
  return rows.map(parseData);
}

export function upsertContact(db: Database, c: EntityData): void {
  stmt(
    db,
    `INSERT INTO contacts (id, name, number, data) VALUES (@id, @name, @number, @data)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, number = excluded.number,
       data = excluded.data`,
  ).run({ id: c.id, name: str(c.name), number: str(c.number), data: JSON.stringify(c) });
}

export function deleteContact(db: Database, id: number): void {
  stmt(db, `DELETE FROM contacts WHERE id = ?`).run(id);
}

export function getContact(db: Database, id: number): EntityData | null {
  const row = stmt(db, `SELECT data FROM contacts WHERE id = ?`).get(id) as
    { data: string } | undefined;
  return row ? parseData(row) : null;
}

export function upsertTag(db: Database, t: EntityData): void {
  stmt(
    db,
    `INSERT INTO tags (id, name, data) VALUES (@id, @name, @data)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, data = excluded.data`,
  ).run({ id: t.id, name: str(t.name), data: JSON.stringify(t) });
}

export function deleteTag(db: Database, id: number): void {
  stmt(db, `DELETE FROM tags WHERE id = ?`).run(id);
}

export function listTags(db: Database): EntityData[] {
  return (stmt(db, `SELECT data FROM tags ORDER BY name, id`).all() as { data: string }[]).map(
    parseData,
  );
}

/** Quick messages come from their own list route, not the feed: replaced as a whole. */
export function replaceQuickMessages(db: Database, items: EntityData[]): void {
  db.transaction(() => {
    stmt(db, `DELETE FROM quick_messages`).run();
    const insert = stmt(
      db,
      `INSERT INTO quick_messages (id, shortcode, message, data) VALUES (?, ?, ?, ?)`,
    );
    for (const q of items) insert.run(q.id, str(q.shortcode), str(q.message), JSON.stringify(q));
  })();
}

/** Quick messages whose shortcode starts with `prefix` (the `/` picker of the composer). */
export function findQuickMessages(db: Database, prefix = '', limit = 20): EntityData[] {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  return (
    stmt(
      db,
      `SELECT data FROM quick_messages WHERE shortcode LIKE ? ESCAPE '\\'
          ORDER BY shortcode LIMIT ?`,
    ).all(`${escaped}%`, limit) as { data: string }[]
  ).map(parseData);
}
