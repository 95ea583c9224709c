import type { Database } from 'better-sqlite3';
import { stmt } from './statements.js';
import { parseData } from './entities.js';
import type { EntityData } from '../core/types.js';

/**
 * Internal chats and their messages, as the change feed brings them (entity `chat`): read by the
 * chats page when the server cannot be reached. A message's id orders its chat (the server draws
 * a chat's ids in commit order).
 */

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

export function upsertChat(db: Database, c: EntityData): void {
  stmt(
    db,
    `INSERT INTO chats (id, uuid, updatedAt, data) VALUES (@id, @uuid, @updatedAt, @data)
     ON CONFLICT (id) DO UPDATE SET uuid = excluded.uuid, updatedAt = excluded.updatedAt,
       data = excluded.data`,
  ).run({ id: c.id, uuid: str(c.uuid), updatedAt: str(c.updatedAt), data: JSON.stringify(c) });
}

/** Removes a chat (deleted, or the user left it) and its messages. */
export function deleteChat(db: Database, id: number): void {
  stmt(db, `DELETE FROM chat_messages WHERE chatId = ?`).run(id);
  stmt(db, `DELETE FROM chats WHERE id = ?`).run(id);
}

export function upsertChatMessage(db: Database, m: EntityData): void {
  if (typeof m.chatId !== 'number') return;
  stmt(
    db,
    `INSERT INTO chat_messages (id, chatId, data) VALUES (@id, @chatId, @data)
     ON CONFLICT (id) DO UPDATE SET chatId = excluded.chatId, data = excluded.data`,
  ).run({ id: m.id, chatId: m.chatId, data: JSON.stringify(m) });
}

export function deleteChatMessage(db: Database, id: number): void {
  stmt(db, `DELETE FROM chat_messages WHERE id = ?`).run(id);
}

export interface ChatListOptions {
  limit?: number;
  /** Keyset: the last chat of the previous page. */
  after?: { updatedAt: string; id: number };
}

/** Most recently active first, as the chat list shows them. */
export function listChats(db: Database, options: ChatListOptions = {}): EntityData[] {
  const params: Record<string, unknown> = { limit: options.limit ?? 50 };
  let where = '';
  if (options.after) {
    where = 'WHERE (updatedAt, id) < (@updatedAt, @id)';
    Object.assign(params, options.after);
  }
  const rows = stmt(
    db,
    `SELECT data FROM chats ${where} ORDER BY updatedAt DESC, id DESC LIMIT @limit`,
  ).all(params) as { data: string }[];
  return rows.map(parseData);
}

export interface ChatMessagesOptions {
  limit?: number;
  /** Keyset: messages older than this id. */
  before?: number;
}

/** A chat's messages, newest first (a page ends where `before` starts the next). */
export function chatMessagesPage(
  db: Database,
  chatId: number,
  options: ChatMessagesOptions = {},
): EntityData[] {
  const rows = stmt(
    db,
    `SELECT data FROM chat_messages WHERE chatId = @chatId AND id < @before
      ORDER BY id DESC LIMIT @limit`,
  ).all({
    chatId,
    before: options.before ?? Number.MAX_SAFE_INTEGER,
    limit: options.limit ?? 50,
  }) as { data: string }[];
  return rows.map(parseData);
}
