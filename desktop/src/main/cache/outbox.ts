import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type { OutboxEntry, OutboxState } from '../core/types.js';

interface OutboxRow {
  clientId: string;
  ticketId: number;
  body: string;
  quotedMsgId: number | null;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number;
  state: OutboxState;
  reason: string | null;
  confirmed: number;
}

const toEntry = (r: OutboxRow): OutboxEntry => ({ ...r, confirmed: r.confirmed === 1 });

export function insertOutboxEntry(db: Database, e: OutboxEntry): void {
  stmt(
    db,
    `INSERT INTO outbox (clientId, ticketId, body, quotedMsgId, createdAt, attempts,
       nextAttemptAt, state, reason, confirmed)
     VALUES (@clientId, @ticketId, @body, @quotedMsgId, @createdAt, @attempts, @nextAttemptAt,
       @state, @reason, @confirmed)`,
  ).run({ ...e, confirmed: e.confirmed ? 1 : 0 });
}

export function updateOutboxEntry(db: Database, e: OutboxEntry): void {
  stmt(
    db,
    `UPDATE outbox SET attempts = @attempts, nextAttemptAt = @nextAttemptAt, state = @state,
       reason = @reason, confirmed = @confirmed WHERE clientId = @clientId`,
  ).run({
    clientId: e.clientId,
    attempts: e.attempts,
    nextAttemptAt: e.nextAttemptAt,
    state: e.state,
    reason: e.reason,
    confirmed: e.confirmed ? 1 : 0,
  });
}

export function deleteOutboxEntry(db: Database, clientId: string): void {
  stmt(db, `DELETE FROM outbox WHERE clientId = ?`).run(clientId);
}

/** In the order written. */
export function listOutboxEntries(db: Database): OutboxEntry[] {
  return (stmt(db, `SELECT * FROM outbox ORDER BY createdAt, rowid`).all() as OutboxRow[]).map(
    toEntry,
  );
}
