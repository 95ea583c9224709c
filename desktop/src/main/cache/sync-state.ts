import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';

const CURSOR = 'cursor';

export function getCursor(db: Database): number {
  const row = stmt(db, `SELECT value FROM sync_state WHERE key = ?`).get(CURSOR) as
    { value: string } | undefined;
  return row ? Number(row.value) : 0;
}

export function setCursor(db: Database, cursor: number): void {
  stmt(
    db,
    `INSERT INTO sync_state (key, value) VALUES (?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run(CURSOR, String(cursor));
}
