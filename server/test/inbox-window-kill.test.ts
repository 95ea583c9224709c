// kill -9 of the worker running a connection while 2,000 customer messages wait and its inbox
// appends are held by a table lock (a worker far behind): the simulator has handed it one read at
// most, so at most that many messages are lost; the rest wait for the next holder, which stores
// every one once. Children run in their own process groups and are killed (whole group) in
// afterAll, also when the test fails.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SessionLease } from '../src/whatsapp/session-lease.js';
import { READ_BATCH } from '../src/whatsapp/simulator/device.js';
import { databaseUrl } from './db-url.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { simConnection, until } from './ticketing/fixtures.js';
import { killGroup, spawnTestChild } from './worker-children.js';

const LEASE_MS = 3_000;
const MESSAGES = 2_000;
let server: TestServer;
let db: pg.Client;
const groups = new Map<number, ChildProcess>();

beforeAll(async () => {
  // The test's own server only serves the API: the session runs in the child workers.
  server = await startTestServer({ ROLE: 'api', SIMULATOR: 'on' });
  db = new pg.Client({ connectionString: databaseUrl(server.database) });
  await db.connect();
}, 60_000);

afterAll(async () => {
  for (const child of groups.values()) await killGroup(child);
  await db?.end();
  await server?.close();
});

/**
 * A session's INSERT into the inbox waits for a lock. Asked inside the test's transaction, so the
 * backend status snapshot is cleared first (Postgres keeps the first one until the end).
 */
async function appendWaiting(): Promise<true | undefined> {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rowCount } = await db.query(
    `SELECT 1 FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'
        AND query LIKE 'INSERT INTO session_inbox%'`,
  );
  return rowCount ? true : undefined;
}

it('kill -9 of a worker far behind loses at most one read; the next holder stores the rest once', async () => {
  const workers = await Promise.all(
    [0, 1].map(() => spawnTestChild(server, groups, { leaseMs: LEASE_MS, poolSize: 4 })),
  );
  const { admin } = await createCompanyWithAdmin(server);
  const sim = new SimulatorClient(server.url, admin.token);
  const whatsappId = await simConnection(server, admin, sim);
  await sim.faults(whatsappId, { noReplay: true });
  const holder = Number(
    (await SessionLease.holder(server.app.redis, server.app.prefix, whatsappId))!.split(':')[1],
  );
  const victim = workers.find((w) => w.child.pid === holder)!.child;

  await db.query('BEGIN');
  await db.query('LOCK TABLE session_inbox IN SHARE MODE');
  const ids: string[] = [];
  let handedAtKill = Number.NaN;
  try {
    for (let from = 0; from < MESSAGES; from += 1_000) {
      const messages = Array.from({ length: 1_000 }, (_, i) => ({
        whatsappId,
        from: `55119333${String((from + i) % 40).padStart(5, '0')}`,
        body: `antes do kill ${from + i}`,
      }));
      ids.push(...(await sim.inboundBatch(messages)).ids);
    }
    // The signal: the holder's append is waiting on the lock (everything it read is in it).
    await until(appendWaiting, 10_000);
    handedAtKill = (await sim.deliveries(whatsappId)).handedOver;
    await killGroup(victim);
  } finally {
    await db.query('COMMIT');
  }

  const { rows } = await until(async () => {
    const result = await db.query<{ wid: string; n: number }>(
      `SELECT wid, count(*)::int AS n FROM messages WHERE wid = ANY($1) GROUP BY wid`,
      [ids],
    );
    // Settled: everything stored, or (a loss) the inbox drained and nothing left in the network.
    if (result.rows.length === ids.length) return result;
    const left = await db.query(`SELECT 1 FROM session_inbox WHERE "whatsappId" = $1 LIMIT 1`, [
      whatsappId,
    ]);
    const waiting = await server.app.redis.llen(`${server.app.prefix}:sim:${whatsappId}:inbox`);
    const handed = (await sim.deliveries(whatsappId)).handedOver;
    // The killed worker's last INSERT may still be running (its backend outlives the client).
    const appending = await db.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state = 'active'
          AND query LIKE 'INSERT INTO session_inbox%'`,
    );
    return !left.rowCount && !waiting && !appending.rowCount && handed === ids.length
      ? result
      : undefined;
  }, 90_000);
  const lost = ids.length - rows.length;
  process.stdout.write(
    `inbox window at kill -9: ${handedAtKill} of ${MESSAGES} handed over; lost ${lost}\n`,
  );
  expect(handedAtKill).toBeLessThanOrEqual(READ_BATCH);
  expect(lost).toBeLessThanOrEqual(handedAtKill);
  expect(rows.filter((r) => r.n > 1)).toEqual([]);
  expect((await sim.deliveries(whatsappId)).redelivered).toEqual([]);
}, 150_000);
