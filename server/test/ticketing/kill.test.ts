// SIGKILL of the worker while it stores a backlog of 2,000 customer messages that the simulator
// handed over once and will never hand over again (no-replay mode, as WhatsApp after its
// receipt): after a restart every message is stored exactly once, from the write-ahead inbox.
// Workers are spawned as node itself (no npx/tsx wrapper) in their own process group, and the
// test checks that no process of any group it started is left.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCompanyWithAdmin } from '../fixtures.js';
import { startTestServer, type TestServer } from '../harness.js';
import { SimulatorClient } from '../simulator-client.js';
import { groupAlive, killGroup, spawnWorkerProcess } from '../worker-children.js';
import { simConnection, until } from './fixtures.js';

const LEASE_MS = 3_000;
const TOTAL = 2_000;
let server: TestServer;
const groups = new Map<number, ChildProcess>();

const spawnWorker = () => spawnWorkerProcess(server, groups, { leaseMs: LEASE_MS, poolSize: 4 });

/**
 * Waits until the group is empty: the worker's own children (tsx's esbuild service) are reaped
 * by init a moment after the worker, so this polls; a process that stays fails the test.
 */
async function groupGone(pgid: number): Promise<boolean> {
  await until(() => !groupAlive(pgid) || undefined, 10_000).catch(() => undefined);
  return !groupAlive(pgid);
}

beforeAll(async () => {
  // The test's own server only serves the API (and the simulator's control API).
  server = await startTestServer({ ROLE: 'api', SIMULATOR: 'on' });
}, 120_000);

afterAll(async () => {
  for (const child of groups.values()) await killGroup(child);
  await server?.close();
});

const count = async (sql: string, params: unknown[] = []) =>
  Number(((await server.app.ds.query(sql, params)) as { n: string }[])[0]!.n);

it(
  'stores each of 2,000 handed-over messages exactly once across a SIGKILL of the worker',
  { timeout: 300_000 },
  async () => {
    let worker = await spawnWorker();
    const company = await createCompanyWithAdmin(server);
    const sim = new SimulatorClient(server.url, company.admin.token);
    const whatsappId = await simConnection(server, company.admin, sim);
    await sim.faults(whatsappId, { noReplay: true });

    const ids: string[] = [];
    for (let batch = 0; batch < TOTAL / 1_000; batch++) {
      const messages = Array.from({ length: 1_000 }, (_, i) => ({
        whatsappId,
        from: `55119777${String((batch * 1_000 + i) % 80).padStart(4, '0')}`,
        body: `lote ${batch} mensagem ${i}`,
      }));
      ids.push(...(await sim.inboundBatch(messages)).ids);
    }
    const stored = () =>
      count(`SELECT count(*) AS n FROM messages WHERE NOT "fromMe" AND "whatsappId" = $1`, [
        whatsappId,
      ]);
    const inbox = () =>
      count(`SELECT count(*) AS n FROM session_inbox WHERE "whatsappId" = $1`, [whatsappId]);
    // The signal to kill: every message handed over (receipts counted) and durable, some stored.
    await until(async () => {
      const [handed, done, waiting] = [
        (await sim.deliveries(whatsappId)).handedOver,
        await stored(),
        await inbox(),
      ];
      return (handed === TOTAL && done >= 50 && done + waiting >= TOTAL) || undefined;
    }, 120_000);
    await killGroup(worker);
    const storedAtKill = await stored();
    const waitingAtKill = await inbox();
    expect(await groupGone(worker.pid!)).toBe(true);
    process.stdout.write(
      `kill: ${storedAtKill} stored, ${waitingAtKill} only in the inbox at the SIGKILL\n`,
    );
    // The kill interrupted the work: what was not stored lives only in the inbox now.
    expect(storedAtKill).toBeLessThan(TOTAL);
    expect(storedAtKill + waitingAtKill).toBeGreaterThanOrEqual(TOTAL);

    // Customers keep writing while no worker runs: WhatsApp holds these (not handed over yet).
    const later = await sim.inboundBatch(
      Array.from({ length: 100 }, (_, i) => ({
        whatsappId,
        from: `551197770${String(i % 10).padStart(3, '0')}`,
        body: `enquanto fora ${i}`,
      })),
    );
    ids.push(...later.ids);

    worker = await spawnWorker();
    await until(async () => ((await stored()) >= ids.length ? true : undefined), 240_000);
    const counts = (await server.app.ds.query(
      `SELECT wid, count(*)::int AS n FROM messages WHERE wid = ANY($1) GROUP BY wid`,
      [ids],
    )) as { wid: string; n: number }[];
    expect(counts).toHaveLength(ids.length);
    expect(counts.filter((r) => r.n !== 1)).toEqual([]);
    expect(await stored()).toBe(ids.length);
    // In the order WhatsApp handed them over: the inbox is drained in order, before new events.
    const order = (await server.app.ds.query(
      `SELECT wid FROM messages WHERE wid = ANY($1) ORDER BY id`,
      [ids],
    )) as { wid: string }[];
    expect(order.map((r) => r.wid)).toEqual(ids);
    expect(await inbox()).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM session_dead_letters`)).toBe(0);
    // The simulator never handed anything over twice: the inbox did the work, not a replay.
    const deliveries = await sim.deliveries(whatsappId);
    expect(deliveries).toEqual({ handedOver: ids.length, redelivered: [] });
    const dupTickets = await server.app.ds.query(
      `SELECT "contactId" FROM tickets WHERE status <> 'closed' GROUP BY 1, "whatsappId" HAVING count(*) > 1`,
    );
    expect(dupTickets).toEqual([]);
  },
);

it('leaves no process behind', async () => {
  for (const child of groups.values()) await killGroup(child);
  for (const pgid of groups.keys()) expect(await groupGone(pgid)).toBe(true);
});
