import { afterAll, afterEach, expect, it } from 'vitest';
import { setClock } from '../../src/modules/routing/clock.js';
import { sweepDueTimers } from '../../src/modules/timers/timers.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { dropDatabase, freshDatabase, testConfig, type TestServer } from '../harness.js';
import { customer, scene, ticketOf } from './scenario.js';

let database = '';
const running: RunningServer[] = [];

/** A server on a given database whose close() keeps the database (a restart, not a teardown). */
async function boot(): Promise<TestServer> {
  const server = await startServer(testConfig(database));
  running.push(server);
  const request = async (method: string, path: string, options: any = {}) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(server.url + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  const login = async (email: string, password: string) => {
    const res = await request('POST', '/auth/login', { body: { email, password } });
    return { token: res.body.token, cookie: '', user: res.body.user };
  };
  return { ...server, database, request, login } as TestServer;
}

afterEach(() => setClock(undefined));
afterAll(async () => {
  for (const s of running) await s.close().catch(() => undefined);
  if (database) await dropDatabase(database);
});

it('a timer due while the worker was down fires once after it comes back', async () => {
  database = await freshDatabase();
  const first = await boot();
  const s = await scene(first, {
    queues: [{ name: 'Geral', greetingMessage: 'Olá' }],
    connection: { expiresTicket: 5, expiresInactiveMessage: 'Fechado por inatividade.' },
  });
  const p = `5531${String(Date.now()).slice(-9)}`;
  const c = customer(s, p);
  await c.say('oi');
  await c.replies();
  const ticket = await ticketOf(first, s, p);
  await first.request('PUT', `/tickets/${ticket.id}`, {
    token: s.admin.token,
    body: { status: 'open' },
  });
  await running.shift()!.close();

  // Ten minutes pass with no worker: the 5-minute timer falls due unseen.
  setClock(() => new Date(Date.now() + 10 * 60_000));
  const second = await boot();
  s.sim = new (s.sim.constructor as any)(second.url, s.admin.token);
  await s.sim.until(async () => (await ticketOf(second, s, p)).status === 'closed', 20_000);
  const sent = async () =>
    (await s.sim.outbound(s.whatsappId)).filter((m) => m.body === 'Fechado por inatividade.');
  await s.sim.until(async () => (await sent()).length === 1, 20_000);
  // Sweeping again, and the first run's delayed job still in Redis, repeat nothing.
  await sweepDueTimers(second.app);
  await new Promise((r) => setTimeout(r, 700));
  expect(await sent()).toHaveLength(1);
  const stored = await second.app.ds.query(
    `SELECT count(*)::int AS n FROM messages WHERE "ticketId" = $1 AND body = $2`,
    [ticket.id, 'Fechado por inatividade.'],
  );
  expect(stored[0].n).toBe(1);
});
