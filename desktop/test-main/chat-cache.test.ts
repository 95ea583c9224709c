import { describe, expect, it } from 'vitest';
import { chatMessagesPage, listChats } from '../src/main/cache/chats.js';
import { openCache } from '../src/main/cache/open.js';
import { SqliteStore } from '../src/main/cache/sqlite-store.js';
import { MemoryStore } from '../src/main/core/memory-store.js';
import { changeFromEvent, opsOf } from '../src/main/core/protocol.js';

const chat = (id: number, updatedAt: string, lastMessage = '') => ({
  id,
  uuid: `00000000-0000-4000-8000-00000000000${id}`,
  title: `Chat ${id}`,
  lastMessage,
  updatedAt,
  users: [{ chatId: id, userId: 1, unreads: 0, user: { id: 1, name: 'Ana' } }],
});
const message = (id: number, chatId: number, text: string) => ({
  id,
  chatId,
  senderId: 2,
  message: text,
  createdAt: '2026-01-01T10:00:00Z',
  sender: { id: 2, name: 'Bruno' },
});

/** A feed row's operations (what `opsOfEntry` does with a row the shared reader checked). */
const opsOfRow = (row: {
  seq: number;
  entity: string;
  entityId: number;
  action: string;
  payload: unknown;
}) => opsOf(row.entity, row.action, row.entityId, row.payload);

describe('internal chat changes in the cache', () => {
  it('socket events of the chat entity become chat and chat-message operations', () => {
    const created = changeFromEvent('chat', { action: 'create', chat: chat(1, 'a'), seq: 3 });
    expect(created).toEqual({
      seq: 3,
      ops: [{ entity: 'chat', op: 'upsert', data: chat(1, 'a') }],
    });
    const sent = changeFromEvent('chat', {
      action: 'new-message',
      newMessage: message(7, 1, 'oi'),
      chat: chat(1, 'b', 'oi'),
      seq: 4,
    });
    expect(sent?.ops).toEqual([
      { entity: 'chat', op: 'upsert', data: chat(1, 'b', 'oi') },
      { entity: 'chatMessage', op: 'upsert', data: message(7, 1, 'oi') },
    ]);
    expect(changeFromEvent('chat', { action: 'delete', chatId: 1, id: 1, seq: 5 })).toEqual({
      seq: 5,
      ops: [{ entity: 'chat', op: 'delete', id: 1 }],
    });
    // Without a feed number (an older server) the event is not a change of the feed.
    expect(changeFromEvent('chat', { action: 'create', chat: chat(1, 'a') })).toBeNull();
  });

  it('feed rows fill the SQLite cache and the memory cache alike; a delete takes the messages', () => {
    const rows = [
      { seq: 1, entity: 'chat', entityId: 1, action: 'create', payload: { chat: chat(1, 'a') } },
      { seq: 2, entity: 'chat', entityId: 2, action: 'create', payload: { chat: chat(2, 'b') } },
      ...[10, 11, 12].map((id, i) => ({
        seq: 3 + i,
        entity: 'chat',
        entityId: 1,
        action: 'new-message',
        payload: { newMessage: message(id, 1, `m${id}`), chat: chat(1, `c${i}`, `m${id}`) },
      })),
      {
        seq: 6,
        entity: 'chat',
        entityId: 2,
        action: 'new-message',
        payload: { newMessage: message(20, 2, 'm20'), chat: chat(2, 'd', 'm20') },
      },
    ];
    const sqlite = new SqliteStore(openCache());
    const memory = new MemoryStore();
    const ops = rows.flatMap(opsOfRow);
    sqlite.applyChanges(ops, 6);
    memory.applyChanges(ops, 6);
    // The most recently active first; a chat's messages newest first, paged by id.
    expect(listChats(sqlite.db).map((c) => [c.id, c.lastMessage])).toEqual([
      [2, 'm20'],
      [1, 'm12'],
    ]);
    expect(chatMessagesPage(sqlite.db, 1, { limit: 2 }).map((m) => m.id)).toEqual([12, 11]);
    expect(chatMessagesPage(sqlite.db, 1, { before: 11 }).map((m) => m.id)).toEqual([10]);
    expect([...memory.chatMessages.keys()].sort()).toEqual([10, 11, 12, 20]);

    const gone = opsOfRow({
      seq: 7,
      entity: 'chat',
      entityId: 1,
      action: 'delete',
      payload: { chatId: 1, id: 1 },
    });
    sqlite.applyChanges(gone, 7);
    memory.applyChanges(gone, 7);
    expect(listChats(sqlite.db).map((c) => c.id)).toEqual([2]);
    expect(chatMessagesPage(sqlite.db, 1)).toEqual([]);
    expect(chatMessagesPage(sqlite.db, 2).map((m) => m.message)).toEqual(['m20']);
    expect([...memory.chats.keys()]).toEqual([2]);
    expect([...memory.chatMessages.keys()]).toEqual([20]);
    expect(sqlite.getCursor()).toBe(7);
  });

  it('a full resync replaces the chats with the snapshot’s', () => {
    const sqlite = new SqliteStore(openCache());
    sqlite.applyChanges(
      opsOfRow({
        seq: 1,
        entity: 'chat',
        entityId: 1,
        action: 'create',
        payload: { chat: chat(1, 'a') },
      }),
      1,
    );
    sqlite.replaceAll({
      cursor: 9,
      tickets: [],
      contacts: [],
      tags: [],
      messages: [],
      chats: [chat(3, 'z')],
      chatMessages: [message(30, 3, 'de volta')],
    });
    expect(listChats(sqlite.db).map((c) => c.id)).toEqual([3]);
    expect(chatMessagesPage(sqlite.db, 3).map((m) => m.message)).toEqual(['de volta']);
  });
});
