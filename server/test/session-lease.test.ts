// Two (then three) worker processes on one database and Redis prefix, one simulator connection:
// exactly one runs it; kill -9 of the holder hands it to the other within the lease time; a
// graceful shutdown hands it over at once.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionLease } from '../src/whatsapp/session-lease.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { spawnWorkerProcess } from './worker-children.js';

const LEASE_MS = 3_000;
let server: TestServer;
let sim: SimulatorClient;
let whatsappId: number;
const children = new Map<number, ChildProcess>();

/** A plain child (not its own group: the test also stops one with SIGTERM); resolves its pid. */
const spawnWorker = async () =>
  (await spawnWorkerProcess(server, children, { leaseMs: LEASE_MS, detached: false })).pid!;

/** The pid in the lease's owner string (host:pid:random:epoch), or undefined when free. */
async function holderPid(): Promise<number | undefined> {
  const value = await SessionLease.holder(server.app.redis, server.app.prefix, whatsappId);
  return value ? Number(value.split(':')[1]) : undefined;
}

async function epoch(): Promise<number> {
  const [row] = await server.app.ds.query(`SELECT "sessionEpoch" FROM whatsapps WHERE id = $1`, [
    whatsappId,
  ]);
  return Number(row.sessionEpoch);
}

beforeAll(async () => {
  // The test's own server only serves the API: sessions run in the child workers.
  server = await startTestServer({ ROLE: 'api', SIMULATOR: 'on' });
  const { admin } = await createCompanyWithAdmin(server);
  sim = new SimulatorClient(server.url, admin.token);
  const res = await server.request('POST', '/whatsapp', {
    token: admin.token,
    body: { name: 'Disputada', provider: 'simulator' },
  });
  whatsappId = res.body.id;
}, 120_000);

afterAll(async () => {
  for (const child of children.values()) child.kill('SIGKILL');
  await server?.close();
});

describe('session lease across worker processes', () => {
  it('one holder at a time; kill -9 hands over within the lease; shutdown hands over at once', async () => {
    const [w1, w2] = await Promise.all([spawnWorker(), spawnWorker()]);
    await sim.connect(whatsappId, '5511955554444');
    const first = await holderPid();
    expect([w1, w2]).toContain(first);

    // Over two lease periods the holder never changes and the row carries its epoch.
    const firstEpoch = await epoch();
    for (let i = 0; i < 12; i++) {
      expect(await holderPid()).toBe(first);
      await new Promise((r) => setTimeout(r, LEASE_MS / 6));
    }
    expect(await epoch()).toBe(firstEpoch);

    const killedAt = Date.now();
    children.get(first!)!.kill('SIGKILL');
    children.delete(first!);
    const other = first === w1 ? w2 : w1;
    await sim.until(async () => (await holderPid()) === other, LEASE_MS * 3);
    const takeover = Date.now() - killedAt;
    // The lease expires after LEASE_MS; the survivor scans every LEASE_MS / 3.
    expect(takeover).toBeLessThan(LEASE_MS + LEASE_MS / 3 + 1_000);
    // The lease shows the new holder a moment before its epoch reaches the row (acquire's UPDATE).
    await sim.until(async () => (await epoch()) > firstEpoch, LEASE_MS);
    // Still linked: the new holder resumes without a QR code.
    await sim.waitForStatus(whatsappId, 'CONNECTED', LEASE_MS * 2);
    const { id } = await sim.inbound({ whatsappId, from: '5511988880000', body: 'ainda aí?' });
    expect(id).toBeTruthy();

    const w3 = await spawnWorker();
    const stoppedAt = Date.now();
    children.get(other)!.kill('SIGTERM');
    await sim.until(async () => (await holderPid()) === w3, LEASE_MS * 3);
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_MS);
    await sim.waitForStatus(whatsappId, 'CONNECTED', LEASE_MS * 2);
  }, 90_000);
});
