import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import type {
  EntityData,
  Op,
  OptimisticMessage,
  OutboxEntry,
  OutboxStore,
  Snapshot,
  SyncStore,
} from '../core/types.js';
import {
  deleteContact,
  deleteTag,
  deleteTicket,
  getTicket,
  parseData,
  upsertContact,
  upsertTag,
  upsertTicket,
} from './entities.js';
import { deleteChat, deleteChatMessage, upsertChat, upsertChatMessage } from './chats.js';
import { deleteMessage, deleteOptimistic, insertOptimistic, upsertMessage } from './messages.js';
import {
  deleteOutboxEntry,
  insertOutboxEntry,
  listOutboxEntries,
  updateOutboxEntry,
} from './outbox.js';
import { getCursor, setCursor } from './sync-state.js';

const TABLES: Record<Op['entity'], string> = {
  ticket: 'tickets',
  message: 'messages',
  contact: 'contacts',
  tag: 'tags',
  chat: 'chats',
  chatMessage: 'chat_messages',
};

/** Merges fields into the cached entity, if the cache holds it. */
function patchEntity(db: Database, op: Extract<Op, { op: 'patch' }>): void {
  const row = stmt(db, `SELECT data FROM ${TABLES[op.entity]} WHERE id = ?`).get(op.id) as
    { data: string } | undefined;
  if (!row) return;
  applyOp(db, { entity: op.entity, op: 'upsert', data: { ...parseData(row), ...op.fields } });
}

export function applyOp(db: Database, op: Op): void {
  if (op.op === 'patch') {
    patchEntity(db, op);
    return;
  }
  if (op.op === 'upsert') {
    if (op.entity === 'ticket') upsertTicket(db, op.data);
    else if (op.entity === 'message') upsertMessage(db, op.data);
    else if (op.entity === 'contact') upsertContact(db, op.data);
    else if (op.entity === 'chat') upsertChat(db, op.data);
    else if (op.entity === 'chatMessage') upsertChatMessage(db, op.data);
    else upsertTag(db, op.data);
    return;
  }
  if (op.entity === 'ticket') deleteTicket(db, op.id);
  else if (op.entity === 'message') deleteMessage(db, op.id);
  else if (op.entity === 'contact') deleteContact(db, op.id);
  else if (op.entity === 'chat') deleteChat(db, op.id);
  else if (op.entity === 'chatMessage') deleteChatMessage(db, op.id);
  else deleteTag(db, op.id);
}

/** The SQLite cache behind the sync engine and the outbox; each write is one transaction. */
export class SqliteStore implements SyncStore, OutboxStore {
  constructor(readonly db: Database) {}

  getCursor(): number {
    return getCursor(this.db);
  }

  applyChanges(ops: Op[], cursor: number): void {
    this.db.transaction(() => {
      for (const op of ops) applyOp(this.db, op);
      setCursor(this.db, cursor);
    })();
  }

  replaceAll(snapshot: Snapshot): void {
    const { db } = this;
    db.transaction(() => {
      db.prepare(`DELETE FROM tickets`).run();
      db.prepare(`DELETE FROM contacts`).run();
      db.prepare(`DELETE FROM tags`).run();
      db.prepare(`DELETE FROM chat_messages`).run();
      db.prepare(`DELETE FROM chats`).run();
      // Unsent replies survive a resync; every other message comes back from the snapshot.
      db.prepare(
        `DELETE FROM messages WHERE id IS NOT NULL
            OR clientId NOT IN (SELECT clientId FROM outbox)`,
      ).run();
      for (const t of snapshot.tickets) upsertTicket(db, t);
      for (const c of snapshot.contacts) upsertContact(db, c);
      for (const t of snapshot.tags) upsertTag(db, t);
      for (const m of snapshot.messages) upsertMessage(db, m);
      for (const c of snapshot.chats ?? []) upsertChat(db, c);
      for (const m of snapshot.chatMessages ?? []) upsertChatMessage(db, m);
      setCursor(db, snapshot.cursor);
    })();
  }

  addOutgoing(entry: OutboxEntry, optimistic: OptimisticMessage): void {
    this.db.transaction(() => {
      insertOutboxEntry(this.db, entry);
      insertOptimistic(this.db, optimistic);
    })();
  }

  listOutgoing(): OutboxEntry[] {
    return listOutboxEntries(this.db);
  }

  updateOutgoing(entry: OutboxEntry): void {
    updateOutboxEntry(this.db, entry);
  }

  ackOutgoing(clientId: string, message: EntityData): void {
    this.db.transaction(() => {
      deleteOutboxEntry(this.db, clientId);
      upsertMessage(this.db, { ...message, clientId });
    })();
  }

  discardOutgoing(clientId: string): void {
    this.db.transaction(() => {
      deleteOutboxEntry(this.db, clientId);
      deleteOptimistic(this.db, clientId);
    })();
  }

  getTicket(id: number): EntityData | null {
    return getTicket(this.db, id);
  }
}
