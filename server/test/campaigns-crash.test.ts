// Campaigns across process deaths (issue 16): the API server runs no worker; campaigns run in
// worker processes (`test/worker-process.ts`) that the test kills with SIGKILL. A campaign whose
// time passed while no worker ran starts when one comes back; a worker killed mid-campaign and
// replaced loses no recipient and sends none twice. Real clock, fast pacing set per connection.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setSendPolicy } from '../src/modules/governor/index.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { killGroup, spawnWorkerProcess } from './worker-children.js';

const LEASE_MS = 2_000;
let server: TestServer;
const workers = new Map<number, ChildProcess>();

const spawnWorker = () => spawnWorkerProcess(server, workers, { leaseMs: LEASE_MS, poolSize: 6 });

async function kill(child: ChildProcess): Promise<void> {
  await killGroup(child);
  workers.delete(child.pid!);
}

beforeAll(async () => {
  server = await startTestServer({ ROLE: 'api', SIMULATOR: 'on' });
}, 120_000);
afterAll(async () => {
  for (const child of [...workers.values()]) await kill(child);
  await server?.close();
});

const q = <T>(sql: string, params: unknown[] = []) =>
  server.app.ds.query(sql, params) as Promise<T[]>;
const statusOf = async (id: number) =>
  (await q<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [id]))[0]?.status;

let admin: Session;
let companyId: number;
let sim: SimulatorClient;
let whatsappId: number;

async function campaignFor(numbers: string[], scheduledAt: Date, name: string) {
  const [list] = await q<{ id: number }>(
    `INSERT INTO contact_lists ("companyId", name) VALUES ($1, $2) RETURNING id`,
    [companyId, name],
  );
  await q(
    `INSERT INTO contact_list_items ("companyId", "contactListId", name, number)
     SELECT $1, $2, 'Cliente ' || n, n FROM unnest($3::text[]) AS n`,
    [companyId, list!.id, numbers],
  );
  const res = await server.request('POST', '/campaigns', {
    token: admin.token,
    body: {
      name,
      message1: 'Oferta {nome}',
      whatsappId,
      contactListId: list!.id,
      scheduledAt: scheduledAt.toISOString(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

const numbers = (base: number, n: number) =>
  Array.from({ length: n }, (_, i) => `55119${String(base + i).padStart(8, '0')}`);

it(
  'a campaign whose time passed while no worker ran starts when one comes back',
  { timeout: 120_000 },
  async () => {
    let worker = await spawnWorker();
    const c = await createCompanyWithAdmin(server);
    ({ admin, companyId } = c);
    sim = new SimulatorClient(server.url, admin.token);
    const res = await server.request('POST', '/whatsapp', {
      token: admin.token,
      body: { name: 'Campanhas', provider: 'simulator' },
    });
    whatsappId = res.body.id;
    await sim.connect(whatsappId, '5511910099999');
    await setSendPolicy(
      server.app,
      { whatsappId, companyId },
      {
        minGapMs: 100,
        jitterMs: 0,
        longPauseEvery: 0,
        window: null,
        dailyCap: 0,
        warmupCaps: [],
      },
    );
    await server.request('POST', '/campaign-settings', {
      token: admin.token,
      body: { settings: { messageInterval: 0, longerIntervalAfter: 0 } },
    });
    await kill(worker);

    // Down: the campaign's time comes and goes.
    const at = new Date(Date.now() + 1_000);
    const id = await campaignFor(numbers(60_000, 5), at, 'Durante a queda');
    await sim.until(async () => Date.now() > at.getTime() + 1_000, 10_000);
    expect(await statusOf(id)).toBe('PROGRAMADA');

    worker = await spawnWorker();
    await sim.until(async () => (await statusOf(id)) === 'FINALIZADA', 60_000);
    const out = await sim.outbound(whatsappId);
    expect(out).toHaveLength(5);
    expect(new Set(out.map((m) => m.to)).size).toBe(5);
  },
);

it(
  'a worker killed mid-campaign and replaced: no recipient lost, none sent twice',
  { timeout: 240_000 },
  async () => {
    const TOTAL = 40;
    const before = (await sim.outbound(whatsappId)).length;
    const id = await campaignFor(numbers(70_000, TOTAL), new Date(), 'Morte do worker');
    const sent = async () => (await sim.outbound(whatsappId)).length - before;
    await sim.until(async () => (await sent()) >= 10, 60_000);
    const [first] = [...workers.values()];
    await kill(first!);
    const atKill = await sent();
    expect(atKill).toBeLessThan(TOTAL);

    await spawnWorker();
    await sim.until(async () => (await statusOf(id)) === 'FINALIZADA', 180_000);
    const out = (await sim.outbound(whatsappId)).slice(before);
    // One WhatsApp message per recipient: one message id each, every recipient reached. A send
    // the killed worker had handed to WhatsApp but not recorded is retried by the outbound queue
    // with the same message id (the id WhatsApp deduplicates on), never as a new message.
    const idsOf = new Map<string, Set<string>>();
    for (const m of out) {
      const to = String(m.to).replace(/\D/g, '');
      idsOf.set(to, (idsOf.get(to) ?? new Set()).add(m.id));
    }
    expect(idsOf.size).toBe(TOTAL);
    expect([...idsOf.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(out.length - TOTAL, 'retries of the one in-flight send').toBeLessThanOrEqual(1);
    const states = await q<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM campaign_shippings WHERE "campaignId" = $1 GROUP BY state`,
      [id],
    );
    expect(states).toEqual([{ state: 'sent', n: TOTAL }]);
    const messages = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE "companyId" = $1 AND "clientId" LIKE $2`,
      [companyId, `campaign:${id}:%`],
    );
    expect(messages[0]!.n).toBe(TOTAL);
  },
);
