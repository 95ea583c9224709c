// A socket follows its user's fate at once (issue 11 item 2): logout, a login elsewhere, a new
// password, deletion and company deactivation end it; a demotion or new queues re-room it. A
// second api process shares the Redis adapter: its sockets follow too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, testConfig, type TestServer } from './harness.js';
import { ack, disconnection, listenReady, type Listening } from './socket-client.js';
import {
  addAgent,
  addConnection,
  addQueue,
  customerMessage,
  deliver,
  until,
} from './ticketing/fixtures.js';
import '../src/modules/messages/inbound.js';

let server: TestServer;
let second: RunningServer;
let companyId: number;
let admin: { token: string; user: { id: number } };
let whatsappId: number;
let sales: number;
const open: Listening[] = [];

beforeAll(async () => {
  server = await startTestServer();
  // Another api process on the same database and Redis prefix (its sockets are "remote").
  second = await startServer(testConfig(server.database, { ROLE: 'api' }));
  const company = await createCompanyWithAdmin(server);
  companyId = company.companyId;
  admin = company.admin;
  whatsappId = await addConnection(server, companyId);
  sales = await addQueue(server, companyId, 'Vendas');
});
afterAll(async () => {
  for (const l of open) l.close();
  await second?.close();
  await server?.close();
});

async function socketOn(url: string, token: string): Promise<Listening> {
  const listening = await listenReady(url, token);
  open.push(listening);
  return listening;
}

const event = (name: string) => `company-${companyId}-${name}`;
const named = (l: Listening, name: string) =>
  l.received.filter((r) => r.event === event(name)).map((r) => r.payload as any);

/** A company-wide event every socket of the company gets: a barrier for "nothing else came". */
async function barrier(...sockets: Listening[]): Promise<void> {
  const marker = `marca ${Date.now()}`;
  server.app.realtime.toCompany(companyId, 'settings', {
    action: 'update',
    setting: { key: marker },
  });
  await until(
    () =>
      sockets.every((s) => named(s, 'settings').some((p) => p.setting?.key === marker)) ||
      undefined,
  );
}

/** A customer's message on a ticket of `queueId`; answers the message body. */
async function messageIn(phone: string, queueId: number | null): Promise<string> {
  await deliver(
    server,
    { companyId, whatsappId, admin: admin as never },
    { name: 'message', payload: customerMessage(whatsappId, phone, { body: 'primeira' }) },
  );
  const [row] = await server.app.ds.query(
    `SELECT t.id FROM tickets t JOIN contacts c ON c.id = t."contactId"
      WHERE c.number = $1 AND t."companyId" = $2`,
    [phone, companyId],
  );
  await server.app.ds.query('UPDATE tickets SET "queueId" = $2 WHERE id = $1', [row.id, queueId]);
  const body = `segunda ${phone}`;
  await deliver(
    server,
    { companyId, whatsappId, admin: admin as never },
    { name: 'message', payload: customerMessage(whatsappId, phone, { body }) },
  );
  return body;
}

const bodies = (l: Listening) => named(l, 'appMessage').map((p) => p.message?.body);

describe('sockets follow the user', () => {
  it('logout ends the sockets of that session on every api process', async () => {
    const agent = await addAgent(server, admin as never, { queueIds: [sales] });
    const here = await socketOn(server.url, agent.token);
    const there = await socketOn(second.url, agent.token);
    const ended = Promise.all([disconnection(here.socket), disconnection(there.socket)]);
    const out = await server.request('DELETE', '/auth/logout', { token: agent.token });
    expect(out.status).toBe(200);
    expect(await ended).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('a refresh token replayed after the grace window ends the sockets of that family', async () => {
    const victim = await createCompanyWithAdmin(server);
    const s = await socketOn(second.url, victim.admin.token);
    const ended = disconnection(s.socket);
    const age = () =>
      server.app.ds.query(
        `UPDATE auth_sessions SET "rotatedAt" = now() - interval '1 hour' WHERE "userId" = $1`,
        [victim.admin.user.id],
      );
    await age();
    const rotated = await server.request('POST', '/auth/refresh_token', {
      cookie: victim.admin.cookie,
    });
    expect(rotated.status).toBe(200);
    expect(s.socket.connected).toBe(true);
    await age();
    const replay = await server.request('POST', '/auth/refresh_token', {
      cookie: victim.admin.cookie,
    });
    expect(replay.status).toBe(401);
    expect(await ended).toBe('io server disconnect');
  });

  it('a login elsewhere sends the auth event, then ends the old sockets', async () => {
    const agent = await addAgent(server, admin as never, { queueIds: [sales] });
    const old = await socketOn(second.url, agent.token);
    const ended = disconnection(old.socket);
    await server.login(agent.user.email, 'Senha123');
    expect(await ended).toBe('io server disconnect');
    expect(named(old, 'auth')).toEqual([{ action: 'update', user: { id: agent.id } }]);
  });

  it('a new password set by the admin ends the sockets; their old token cannot connect', async () => {
    const agent = await addAgent(server, admin as never, { queueIds: [sales] });
    const s = await socketOn(second.url, agent.token);
    const ended = disconnection(s.socket);
    const put = await server.request('PUT', `/users/${agent.id}`, {
      token: admin.token,
      body: { password: 'OutraSenha1' },
    });
    expect(put.status).toBe(200);
    expect(await ended).toBe('io server disconnect');
    await expect(listenReady(server.url, agent.token)).rejects.toThrow('ERR_INVALID_TOKEN');
  });

  it('a demoted admin leaves the admins room at once; new queues re-room an agent without a new join', async () => {
    const boss = await addAgent(server, admin as never, { profile: 'admin' });
    const s = await socketOn(second.url, boss.token);
    const control = await socketOn(server.url, admin.token);
    const seen = await messageIn('5511977770001', null);
    await barrier(s, control);
    expect(bodies(s)).toContain(seen);

    await server.request('PUT', `/users/${boss.id}`, {
      token: admin.token,
      body: { profile: 'user', queueIds: [] },
    });
    const hidden = await messageIn('5511977770002', null);
    await barrier(s, control);
    expect(bodies(control)).toContain(hidden);
    expect(bodies(s)).not.toContain(hidden);
    expect(s.socket.connected).toBe(true);

    // As an agent who asked for tickets, getting a queue puts the socket in its room.
    expect(await ack(s.socket, 'joinTickets', 'pending')).toEqual({ ok: true });
    await server.request('PUT', `/users/${boss.id}`, {
      token: admin.token,
      body: { queueIds: [sales] },
    });
    const inQueue = await messageIn('5511977770003', sales);
    await barrier(s, control);
    expect(bodies(s)).toContain(inQueue);
  });

  it('deleting a user ends their sockets', async () => {
    const agent = await addAgent(server, admin as never, { queueIds: [sales] });
    const s = await socketOn(second.url, agent.token);
    const ended = disconnection(s.socket);
    const del = await server.request('DELETE', `/users/${agent.id}`, { token: admin.token });
    expect(del.status).toBe(200);
    expect(await ended).toBe('io server disconnect');
  });

  it('deactivating a company ends its sockets and refuses new ones; other companies keep theirs', async () => {
    const other = await createCompanyWithAdmin(server);
    const theirs = await socketOn(server.url, other.admin.token);
    const agent = await addAgent(server, other.admin, {});
    const agentSocket = await socketOn(second.url, agent.token);
    const ours = await socketOn(server.url, admin.token);
    const ended = Promise.all([disconnection(theirs.socket), disconnection(agentSocket.socket)]);
    const root = await server.login(ADMIN.email, ADMIN.password);
    const put = await server.request('PUT', `/companies/${other.companyId}`, {
      token: root.token,
      body: { status: false },
    });
    expect(put.status).toBe(200);
    expect(await ended).toEqual(['io server disconnect', 'io server disconnect']);
    await expect(listenReady(server.url, agent.token)).rejects.toThrow('ERR_INVALID_TOKEN');
    await barrier(ours);
    expect(ours.socket.connected).toBe(true);
  });
});
