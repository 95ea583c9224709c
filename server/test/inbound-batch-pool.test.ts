// A burst stored by the batch handler while the process has no pooled connection to spare: the
// handler gives its connection back before it waits for the change feed's numbering (which takes
// one of its own). Holding it was a deadlock once as many sessions as the pool had connections
// waited at once: the failover bench's survivor (20 sessions, a pool of 15) stopped dead, taking
// no more sessions and storing nothing. Here the pool has one connection, so one burst is enough.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PortMessage } from '../src/whatsapp/port.js';
import { sessionManagerOf } from '../src/whatsapp/sessions.js';
import type { SimulatorProvider } from '../src/whatsapp/simulator/provider.js';
import { databaseUrl } from './db-url.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { simConnection, until } from './ticketing/fixtures.js';

let server: TestServer;
let companyId: number;
let whatsappId: number;
let sim: SimulatorClient;
/** The test's own connection: the server's one pooled connection is what is under test. */
let db: pg.Client;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on', DB_POOL_SIZE: '1' });
  const company = await createCompanyWithAdmin(server);
  companyId = company.companyId;
  sim = new SimulatorClient(server.url, company.admin.token);
  whatsappId = await simConnection(server, company.admin, sim);
  db = new pg.Client({ connectionString: databaseUrl(server.database) });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db?.end();
  await server?.close();
});

const stored = async (wids: string[]) =>
  (
    await db.query<{ wid: string }>(
      `SELECT wid FROM messages WHERE "companyId" = $1 AND wid = ANY($2) ORDER BY id`,
      [companyId, wids],
    )
  ).rows.map((r) => r.wid);

it('a burst of known contacts is stored with a pool of one connection', async () => {
  const phones = Array.from({ length: 5 }, (_, i) => `55119222${String(i).padStart(5, '0')}`);
  // Known contacts first (a first message is stored alone, not by the batch).
  for (const phone of phones) {
    const { id } = await sim.inbound({ whatsappId, from: phone, body: 'oi' });
    await until(async () => ((await stored([id])).length ? true : undefined), 10_000);
  }
  const messages: PortMessage[] = phones.map((phone, i) => ({
    connectionId: String(whatsappId),
    id: `POOL1BATCH${i}`,
    fromMe: false,
    chatId: `${phone}@s.whatsapp.net`,
    contact: { phone },
    type: 'chat',
    body: `rajada ${i}`,
    timestamp: Date.now(),
    isGroup: false,
    offline: false,
  }));
  // Raised in one go, as a provider does with a burst: one append, one run for the batch.
  const provider = sessionManagerOf(server.app)!.session(whatsappId)!.provider as SimulatorProvider;
  for (const m of messages) provider.events.emit('message', m);
  const wids = messages.map((m) => m.id);
  const rows = await until(async () => {
    const r = await stored(wids);
    return r.length === wids.length ? r : undefined;
  }, 15_000);
  expect(rows).toEqual(wids);
  // Stored by the batch (one transaction), not one at a time after it failed.
  const txs = await db.query(`SELECT DISTINCT xmin::text AS tx FROM messages WHERE wid = ANY($1)`, [
    wids,
  ]);
  expect(txs.rows).toHaveLength(1);
  // Numbered in the change feed, and the session goes on to the next message.
  await until(async () => {
    const { rows: feed } = await db.query(
      `SELECT 1 FROM change_log c JOIN messages m ON c.entity = 'message' AND c."entityId" = m.id
        WHERE m.wid = ANY($1)`,
      [wids],
    );
    return feed.length === wids.length || undefined;
  }, 10_000);
  const next = await sim.inbound({ whatsappId, from: phones[0]!, body: 'e depois' });
  await until(async () => ((await stored([next.id])).length ? true : undefined), 10_000);
}, 60_000);
