import { describe, expect, it } from 'vitest';
import {
  deleteTicket,
  findQuickMessages,
  getContact,
  getTicket,
  listTags,
  listTickets,
  replaceQuickMessages,
  upsertContact,
  upsertTag,
  upsertTicket,
} from '../src/main/cache/entities.js';
import { evictMedia, mediaBytes, recordMedia } from '../src/main/cache/media.js';
import {
  countMessages,
  insertOptimistic,
  messagesPage,
  upsertMessage,
} from '../src/main/cache/messages.js';
import { openCache } from '../src/main/cache/open.js';
import { ftsQuery, searchContacts, searchMessages } from '../src/main/cache/search.js';
import { SqliteStore } from '../src/main/cache/sqlite-store.js';
import { getCursor, setCursor } from '../src/main/cache/sync-state.js';

const iso = (n: number) => new Date(1_700_000_000_000 + n * 1000).toISOString();
const ticket = (id: number, fields = {}) => ({
  id,
  status: 'open',
  userId: 1,
  queueId: null,
  contactId: 1,
  unreadMessages: 0,
  updatedAt: iso(id),
  ...fields,
});
const message = (id: number, ticketId: number, n: number, body = `m${id}`) => ({
  id,
  ticketId,
  body,
  fromMe: false,
  createdAt: iso(n),
});

describe('ticket, contact and tag repositories', () => {
  it('upserts replace the row; lists are newest first with a keyset', () => {
    const db = openCache();
    for (let i = 1; i <= 5; i++) upsertTicket(db, ticket(i, { status: i % 2 ? 'open' : 'closed' }));
    upsertTicket(db, ticket(3, { status: 'pending', updatedAt: iso(99) }));
    expect(getTicket(db, 3)).toMatchObject({ status: 'pending' });
    expect(listTickets(db).map((t) => t.id)).toEqual([3, 5, 4, 2, 1]);
    expect(listTickets(db, { status: 'closed' }).map((t) => t.id)).toEqual([4, 2]);
    const first = listTickets(db, { limit: 2 });
    const next = listTickets(db, {
      limit: 2,
      after: { updatedAt: String(first[1]!.updatedAt), id: first[1]!.id },
    });
    expect(next.map((t) => t.id)).toEqual([4, 2]);
  });

  it('deleting a ticket removes its messages but keeps unsent replies', () => {
    const db = openCache();
    upsertTicket(db, ticket(1));
    upsertMessage(db, message(10, 1, 1));
    insertOptimistic(db, {
      clientId: 'c1',
      ticketId: 1,
      body: 'x',
      fromMe: true,
      ack: 0,
      quotedMsgId: null,
      userId: 1,
      createdAt: iso(2),
    });
    deleteTicket(db, 1);
    expect(getTicket(db, 1)).toBeNull();
    expect(messagesPage(db, 1).map((m) => m.clientId)).toEqual(['c1']);
  });

  it('contacts and tags', () => {
    const db = openCache();
    upsertContact(db, { id: 1, name: 'Ana', number: '5511999' });
    upsertContact(db, { id: 1, name: 'Ana Paula', number: '5511999' });
    expect(getContact(db, 1)).toMatchObject({ name: 'Ana Paula' });
    upsertTag(db, { id: 2, name: 'b' });
    upsertTag(db, { id: 1, name: 'a' });
    expect(listTags(db).map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('quick messages are replaced as a whole and found by shortcode prefix', () => {
    const db = openCache();
    replaceQuickMessages(db, [
      { id: 1, shortcode: 'ola', message: 'Olá!' },
      { id: 2, shortcode: 'obrigado', message: 'Obrigado' },
      { id: 3, shortcode: '100%', message: 'cem' },
    ]);
    expect(findQuickMessages(db, 'o').map((q) => q.id)).toEqual([2, 1]);
    expect(findQuickMessages(db, '10').map((q) => q.id)).toEqual([3]);
    expect(findQuickMessages(db, '%')).toEqual([]);
    replaceQuickMessages(db, [{ id: 4, shortcode: 'x', message: 'y' }]);
    expect(findQuickMessages(db).map((q) => q.id)).toEqual([4]);
  });
});

describe('message repository', () => {
  it('pages a ticket newest first with a keyset', () => {
    const db = openCache();
    for (let i = 1; i <= 120; i++) upsertMessage(db, message(i, 1, i));
    upsertMessage(db, message(500, 2, 1));
    const page1 = messagesPage(db, 1, { limit: 50 });
    expect(page1[0]!.id).toBe(120);
    expect(page1).toHaveLength(50);
    const last = page1[49]!;
    const page2 = messagesPage(db, 1, {
      limit: 50,
      before: { createdAt: String(last.createdAt), key: last.key },
    });
    expect(page2.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => 70 - i));
    expect(countMessages(db, 1)).toBe(120);
  });

  it('the server copy of a reply takes over its optimistic row, in either order', () => {
    const db = openCache();
    insertOptimistic(db, {
      clientId: 'c1',
      ticketId: 1,
      body: 'oi',
      fromMe: true,
      ack: 0,
      quotedMsgId: null,
      userId: 1,
      createdAt: iso(1),
    });
    const [optimistic] = messagesPage(db, 1);
    expect(optimistic).toMatchObject({ pending: true, clientId: 'c1' });
    upsertMessage(db, { ...message(7, 1, 1, 'oi'), clientId: 'c1', fromMe: true });
    upsertMessage(db, { ...message(7, 1, 1, 'oi'), clientId: 'c1', fromMe: true, ack: 2 });
    const rows = messagesPage(db, 1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 7, key: optimistic!.key, pending: false, ack: 2 });
  });
});

describe('search', () => {
  it('builds safe prefix queries', () => {
    expect(ftsQuery('  boleto  "vencido ')).toBe('"boleto"* "vencido"*');
    expect(ftsQuery('" "')).toBeNull();
    expect(ftsQuery('NEAR(a b) OR *')).toBe('"NEAR(a"* "b)"* "OR"* "*"*');
  });

  it('finds messages by words and prefixes, accents ignored, newest first', () => {
    const db = openCache();
    upsertMessage(db, message(1, 1, 1, 'Qual o prazo de entrega?'));
    upsertMessage(db, message(2, 2, 2, 'A entrega atrasou'));
    upsertMessage(db, message(3, 1, 3, 'Obrigado pela atenção'));
    expect(searchMessages(db, 'entreg').map((m) => m.id)).toEqual([2, 1]);
    expect(searchMessages(db, 'atencao').map((m) => m.id)).toEqual([3]);
    expect(searchMessages(db, 'entrega prazo').map((m) => m.id)).toEqual([1]);
    expect(searchMessages(db, 'entrega', { ticketId: 2 }).map((m) => m.id)).toEqual([2]);
    // An edit re-indexes the text.
    upsertMessage(db, message(3, 1, 3, 'Mensagem apagada'));
    expect(searchMessages(db, 'atencao')).toEqual([]);
    expect(searchMessages(db, 'NEAR(')).toEqual([]);
  });

  it('finds contacts by name or number', () => {
    const db = openCache();
    upsertContact(db, { id: 1, name: 'José Antônio', number: '5511988887777' });
    upsertContact(db, { id: 2, name: 'Maria', number: '5521977776666' });
    expect(searchContacts(db, 'jose').map((c) => c.id)).toEqual([1]);
    expect(searchContacts(db, '552197').map((c) => c.id)).toEqual([2]);
    upsertContact(db, { id: 2, name: 'Maria José', number: '5521977776666' });
    expect(
      searchContacts(db, 'jose')
        .map((c) => c.id)
        .sort(),
    ).toEqual([1, 2]);
  });
});

describe('media eviction', () => {
  it('evicts orphaned media, then closed tickets oldest first, until under the bound', () => {
    const db = openCache();
    upsertTicket(db, ticket(1, { status: 'open', updatedAt: iso(1) }));
    upsertTicket(db, ticket(2, { status: 'closed', updatedAt: iso(5) }));
    upsertTicket(db, ticket(3, { status: 'closed', updatedAt: iso(2) }));
    const keys = [1, 2, 3, 4].map((i) => {
      upsertMessage(db, message(i, i === 4 ? 3 : i, i));
      return (db.prepare(`SELECT key FROM messages WHERE id = ?`).get(i) as { key: number }).key;
    });
    const add = (messageKey: number, ticketId: number, path: string) =>
      recordMedia(db, { messageKey, ticketId, path, bytes: 100, storedAt: messageKey });
    add(keys[0]!, 1, 'open.jpg');
    add(keys[1]!, 2, 'closed-recent.jpg');
    add(keys[2]!, 3, 'closed-old.jpg');
    add(999, 3, 'orphan.jpg');
    expect(mediaBytes(db)).toBe(400);
    expect(evictMedia(db, 400)).toEqual([]);
    expect(evictMedia(db, 200)).toEqual(['orphan.jpg', 'closed-old.jpg']);
    expect(evictMedia(db, 0)).toEqual(['closed-recent.jpg', 'open.jpg']);
    expect(mediaBytes(db)).toBe(0);
    // Messages stay; only their files go.
    expect(countMessages(db)).toBe(4);
  });
});

describe('cursor atomicity', () => {
  it('a failure while saving the cursor rolls back the page it belongs to', () => {
    const db = openCache();
    const store = new SqliteStore(db);
    setCursor(db, 5);
    db.exec(`CREATE TRIGGER fail_cursor BEFORE UPDATE ON sync_state BEGIN
               SELECT RAISE(ABORT, 'disk full'); END`);
    expect(() =>
      store.applyChanges([{ entity: 'tag', op: 'upsert', data: { id: 1, name: 'x' } }], 9),
    ).toThrow(/disk full/);
    expect(listTags(db)).toEqual([]);
    expect(getCursor(db)).toBe(5);
  });
});
