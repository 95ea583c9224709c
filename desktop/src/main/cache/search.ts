import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type { EntityData } from '../core/types.js';
import type { CachedMessage } from './messages.js';

/**
 * Turns what the agent typed into an FTS5 query: every word must match as a prefix. Quotes
 * are dropped and words are quoted, so no input can be read as FTS syntax.
 */
export function ftsQuery(text: string): string | null {
  const words = text
    .normalize('NFC')
    .split(/\s+/)
    .map((w) => w.replace(/"/g, '').trim())
    .filter(Boolean)
    .slice(0, 8);
  return words.length ? words.map((w) => `"${w}"*`).join(' ') : null;
}

/** Messages matching the text, newest first. */
export function searchMessages(
  db: Database,
  text: string,
  options: { limit?: number; ticketId?: number } = {},
): CachedMessage[] {
  const query = ftsQuery(text);
  if (!query) return [];
  const rows = stmt(
    db,
    `SELECT m.key, m.id, m.data FROM messages_fts f JOIN messages m ON m.key = f.rowid
        WHERE messages_fts MATCH @query ${options.ticketId ? 'AND m.ticketId = @ticketId' : ''}
        ORDER BY f.rowid DESC LIMIT @limit`,
  ).all({ query, ticketId: options.ticketId, limit: options.limit ?? 50 }) as {
    key: number;
    id: number | null;
    data: string;
  }[];
  return rows.map((r) => ({
    ...(JSON.parse(r.data) as EntityData),
    key: r.key,
    pending: r.id === null,
  }));
}

/** Contacts whose name or number matches, best match first. */
export function searchContacts(db: Database, text: string, limit = 20): EntityData[] {
  const query = ftsQuery(text);
  if (!query) return [];
  const rows = stmt(
    db,
    `SELECT c.data FROM contacts_fts f JOIN contacts c ON c.id = f.rowid
        WHERE contacts_fts MATCH ? ORDER BY rank LIMIT ?`,
  ).all(query, limit) as { data: string }[];
  return rows.map((r) => JSON.parse(r.data) as EntityData);
}
