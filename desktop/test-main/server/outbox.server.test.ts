import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/harness.js';
import { wireSync } from '../../src/main/net/realtime.js';
import { company, DesktopClient, inbound, newPhone, until, type Company } from './client.js';

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

/** A signed-in client wired like main wires it, with a ticket of its own and its cache synced. */
async function withTicket() {
  const client = new DesktopClient(server);
  clients.push(client);
  await client.signIn(c.email, c.password);
  wireSync({
    link: client.link,
    companyId: c.companyId,
    engine: client.engine,
    outbox: client.outbox,
  });
  await client.connect();
  const phone = newPhone();
  await inbound(server, c, phone, 'preciso de ajuda');
  const [row] = await server.app.ds.query(
    `SELECT t.id FROM tickets t JOIN contacts ct ON ct.id = t."contactId" WHERE ct.number = $1`,
    [phone],
  );
  const ticketId = row.id as number;
  const accepted = await client.session.call({
    method: 'PUT',
    path: `/tickets/${ticketId}`,
    body: { status: 'open', userId: client.userId },
  });
  expect(accepted.status).toBe(200);
  await until(() => client.store.getTicket(ticketId)?.status === 'open');
  return { client, ticketId };
}

const onServer = async (clientId: string) =>
  (await server.app.ds.query(`SELECT id FROM messages WHERE "clientId" = $1`, [clientId])) as {
    id: number;
  }[];
const inCache = (client: DesktopClient, clientId: string) =>
  client.store.db.prepare(`SELECT id FROM messages WHERE clientId = ?`).all(clientId) as {
    id: number | null;
  }[];

describe('outbox against the real server', () => {
  it('a reply written offline is stored at once and sent once on reconnect', async () => {
    const { client, ticketId } = await withTicket();
    client.link.disconnect();
    await until(() => !client.link.connected);
    const entry = await client.outbox.compose({ ticketId, body: 'respondo já' });
    expect(inCache(client, entry.clientId)).toEqual([{ id: null }]);
    expect(await onServer(entry.clientId)).toEqual([]);
    await client.connect();
    await until(async () => (await onServer(entry.clientId)).length === 1);
    await until(() => client.store.listOutgoing().length === 0);
    const [stored] = await onServer(entry.clientId);
    expect(inCache(client, entry.clientId)).toEqual([{ id: stored!.id }]);
    await client.engine.idle();
    expect(inCache(client, entry.clientId)).toHaveLength(1);
  });

  it('a resend after a lost answer does not double the message', async () => {
    const { client, ticketId } = await withTicket();
    client.loseNextAnswer = true;
    const entry = await client.outbox.compose({ ticketId, body: 'só uma vez' });
    await until(async () => (await onServer(entry.clientId)).length === 1);
    await until(() => client.store.listOutgoing()[0]?.attempts === 1);
    // The retry (backoff with no jitter: 500 ms) resends the same clientId.
    await until(() => client.store.listOutgoing().length === 0, 5000);
    expect(await onServer(entry.clientId)).toHaveLength(1);
    await client.engine.idle();
    expect(inCache(client, entry.clientId)).toHaveLength(1);
  });

  it('a reply to a ticket closed meanwhile is held and nothing is sent', async () => {
    const { client, ticketId } = await withTicket();
    client.link.disconnect();
    await until(() => !client.link.connected);
    const entry = await client.outbox.compose({ ticketId, body: 'tarde demais' });
    const closed = await client.session.call({
      method: 'PUT',
      path: `/tickets/${ticketId}`,
      body: { status: 'closed' },
    });
    expect(closed.status).toBe(200);
    await client.connect();
    await until(() => client.held.length === 1);
    expect(client.held[0]).toMatchObject({ clientId: entry.clientId, reason: 'ticket-closed' });
    expect(await onServer(entry.clientId)).toEqual([]);
    expect(client.store.listOutgoing()).toEqual([expect.objectContaining({ state: 'held' })]);
    await client.outbox.discard(entry.clientId);
    expect(inCache(client, entry.clientId)).toEqual([]);
  });
});
