import { readFeedAnswer } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/harness.js';
import { openCache } from '../../src/main/cache/open.js';
import { applyOp } from '../../src/main/cache/sqlite-store.js';
import { getCursor, setCursor } from '../../src/main/cache/sync-state.js';
import { MemoryStore } from '../../src/main/core/memory-store.js';
import { changeFromEvent, opsOfEntry } from '../../src/main/core/protocol.js';
import { SyncEngine } from '../../src/main/core/sync-engine.js';
import { httpSyncTransport } from '../../src/main/core/transports.js';
import { systemClock } from '../../src/main/core/types.js';
import { eventName } from '../../src/main/net/realtime.js';
import { company, DesktopClient, head, inbound, newPhone, until, type Company } from './client.js';

let server: TestServer;
let c: Company;
const clients: DesktopClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  c = await company(server);
});
afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
});

async function signedIn(options: ConstructorParameters<typeof DesktopClient>[1] = {}) {
  const client = new DesktopClient(server, options);
  clients.push(client);
  await client.signIn(c.email, c.password);
  return client;
}

/** Wires the socket into the engine, dropping the events `drop` says to. */
function wire(client: DesktopClient, drop: (seq: number) => boolean = () => false) {
  client.link.onEvent((event, payload) => {
    const name = eventName(c.companyId, event);
    const change = name ? changeFromEvent(name, payload) : null;
    if (change && !drop(change.seq)) void client.engine.receive(change).catch(() => undefined);
  });
  client.link.onStatus((s) => {
    if (s === 'connected') void client.engine.connected().catch(() => undefined);
    else client.engine.disconnected();
  });
}

const ticketIdOf = async (phone: string) =>
  until(async () => {
    const [row] = await server.app.ds.query(
      `SELECT t.id FROM tickets t JOIN contacts ct ON ct.id = t."contactId"
        WHERE ct.number = $1 AND t."companyId" = $2`,
      [phone, c.companyId],
    );
    return row?.id as number | undefined;
  });
const serverMessageIds = async (ticketId: number) =>
  (
    await server.app.ds.query(`SELECT id FROM messages WHERE "ticketId" = $1 ORDER BY id`, [
      ticketId,
    ])
  ).map((r: { id: number }) => r.id) as number[];

describe('sync engine against the real server', () => {
  it('reads the real feed: rows, pages and resetRequired', async () => {
    const client = await signedIn();
    await inbound(server, c, newPhone(), 'feed');
    const first = readFeedAnswer(
      (
        await client.session.call({
          method: 'GET',
          path: '/sync/changes',
          query: { after: 0, limit: 1 },
        })
      ).data,
      0,
    );
    if (first.kind !== 'page') throw new Error('unexpected reset');
    expect(first.page.entries).toHaveLength(1);
    expect(first.page).toMatchObject({ hasMore: true, cursor: first.page.entries[0]!.seq });
    const beyond = await client.session.call({
      method: 'GET',
      path: '/sync/changes',
      query: { after: 1e9 },
    });
    expect(readFeedAnswer(beyond.data, 1e9)).toEqual({
      kind: 'reset',
      head: await head(server, c.companyId),
    });
  });

  it('applies live events in order and pulls a gap it detects', async () => {
    const client = await signedIn({ gapGraceMs: 50 });
    const phone = newPhone();
    let dropped = 0;
    // The third event on the socket is lost; the next one reveals the hole.
    let seen = 0;
    wire(client, () => ++seen === 3 && ++dropped > 0);
    await client.connect();
    const pullsBefore = client.pulls;
    for (let i = 0; i < 4; i++) await inbound(server, c, phone, `mensagem ${i}`);
    const ticketId = await ticketIdOf(phone);
    const expected = await serverMessageIds(ticketId);
    await until(() => client.messageIds(ticketId).length === expected.length);
    expect(dropped).toBe(1);
    expect(client.messageIds(ticketId)).toEqual(expected);
    expect(client.pulls).toBeGreaterThan(pullsBefore);
    await until(async () => client.engine.position === (await head(server, c.companyId)));
    await client.engine.idle();
    expect(getCursor(client.store.db)).toBe(await head(server, c.companyId));
  });

  it('after a disconnect it pulls everything it missed, page by page', async () => {
    const client = await signedIn({ pageSize: 5 });
    wire(client);
    await client.connect();
    await client.engine.idle();
    client.link.disconnect();
    const phone = newPhone();
    for (let i = 0; i < 12; i++) await inbound(server, c, phone, `offline ${i}`);
    const ticketId = await ticketIdOf(phone);
    expect(client.messageIds(ticketId)).toEqual([]);
    const pullsBefore = client.pulls;
    await client.connect();
    await until(() => client.messageIds(ticketId).length === 12);
    await client.engine.idle();
    expect(client.messageIds(ticketId)).toEqual(await serverMessageIds(ticketId));
    // 12 messages → 36+ numbered changes → several pages of five.
    expect(client.pulls - pullsBefore).toBeGreaterThanOrEqual(3);
    expect(getCursor(client.store.db)).toBe(await head(server, c.companyId));
  });

  it('saves a page and its cursor in one transaction', async () => {
    const db = openCache();
    const client = await signedIn({ db, pageSize: 1000 });
    const phone = newPhone();
    await inbound(server, c, phone, 'atômico');
    const ticketId = await ticketIdOf(phone);
    db.exec(`CREATE TRIGGER fail_cursor BEFORE INSERT ON sync_state
               BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    await expect(client.engine.pull()).rejects.toThrow(/disk full/);
    expect(client.messageIds(ticketId)).toEqual([]);
    expect(getCursor(db)).toBe(0);
    db.exec(`DROP TRIGGER fail_cursor`);
    await client.engine.pull();
    expect(client.messageIds(ticketId)).toEqual(await serverMessageIds(ticketId));
  });

  it('a crash between applying a page and saving its cursor replays it harmlessly', async () => {
    const db = openCache();
    const phone = newPhone();
    await inbound(server, c, phone, 'antes do crash');
    await inbound(server, c, phone, 'de novo');
    const ticketId = await ticketIdOf(phone);
    const first = await signedIn({ db });
    // What a non-atomic cache would leave: the page's rows written, the cursor not.
    const answer = readFeedAnswer(
      (await first.session.call({ method: 'GET', path: '/sync/changes', query: { after: 0 } }))
        .data,
      0,
    );
    if (answer.kind === 'reset') throw new Error('unexpected reset');
    for (const entry of answer.page.entries) for (const op of opsOfEntry(entry)) applyOp(db, op);
    expect(getCursor(db)).toBe(0);
    const before = cacheRows(db);
    // The app restarts on the same file and pulls from the saved cursor.
    const restarted = await signedIn({ db });
    await restarted.engine.pull();
    expect(cacheRows(db)).toEqual(before);
    expect(restarted.messageIds(ticketId)).toEqual(await serverMessageIds(ticketId));
    expect(getCursor(db)).toBe(await head(server, c.companyId));
  });

  it('resetRequired replaces the cache with a full resync', async () => {
    const db = openCache();
    const phone = newPhone();
    await inbound(server, c, phone, 'depois do reset');
    const ticketId = await ticketIdOf(phone);
    // A cache from another life of the server: cursor past the head and a stale tag.
    db.prepare(`INSERT INTO tags (id, name, data) VALUES (999999, 'velha', '{"id":999999}')`).run();
    setCursor(db, (await head(server, c.companyId)) + 1000);
    const fresh = await signedIn({ db });
    await fresh.engine.pull();
    expect(db.prepare(`SELECT count(*) AS n FROM tags WHERE id = 999999`).get()).toEqual({ n: 0 });
    expect(fresh.messageIds(ticketId)).toEqual(await serverMessageIds(ticketId));
    expect(getCursor(db)).toBe(await head(server, c.companyId));
    const tickets = (db.prepare(`SELECT id FROM tickets`).all() as { id: number }[]).map(
      (r) => r.id,
    );
    expect(tickets).toContain(ticketId);
    expect(fresh.errors).toEqual([]);
  });
});

describe('the web build’s setup: the same engine over the in-memory store', () => {
  it('pulls the real feed into MemoryStore as the SQLite cache holds it', async () => {
    const phone = newPhone();
    await inbound(server, c, phone, 'no navegador');
    const ticketId = await ticketIdOf(phone);
    const desktop = await signedIn();
    await desktop.engine.pull();
    const memory = new MemoryStore();
    const engine = new SyncEngine({
      store: memory,
      transport: httpSyncTransport(desktop.session),
      clock: systemClock,
    });
    await engine.start();
    await engine.pull();
    expect(memory.cursor).toBe(getCursor(desktop.store.db));
    expect(memory.messagesOf(ticketId).map((m) => m.body)).toContain('no navegador');
    expect(memory.messagesOf(ticketId).map((m) => (m as { id: number }).id)).toEqual(
      desktop.messageIds(ticketId),
    );
    expect([...memory.tickets.keys()].sort()).toEqual(
      (
        desktop.store.db.prepare(`SELECT id FROM tickets ORDER BY id`).all() as { id: number }[]
      ).map((r) => r.id),
    );
  });
});

function cacheRows(db: ReturnType<typeof openCache>) {
  return {
    messages: db.prepare(`SELECT id, data FROM messages ORDER BY id`).all(),
    tickets: db.prepare(`SELECT id FROM tickets ORDER BY id`).all(),
  };
}
