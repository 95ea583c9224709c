// The window between WhatsApp's receipt and the durable inbox (issue 14, failover). The simulated
// device reads its next deliveries only once what it handed on is durable, so while the inbox's
// appends are held by a real table lock, the messages handed over (receipted) and not in
// session_inbox stay within one read however many wait; and an append does not wait for the
// shared pool: with every pooled connection taken, a message still reaches the inbox.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_BATCH } from '../src/whatsapp/simulator/device.js';
import { simulatorOf } from '../src/whatsapp/simulator/index.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { databaseUrl } from './db-url.js';
import { startTestServer, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { simConnection, until } from './ticketing/fixtures.js';

let server: TestServer;
let sim: SimulatorClient;
let whatsappId: number;
/** The test's own connection, outside the server's pool. */
let db: pg.Client;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  const { admin } = await createCompanyWithAdmin(server);
  sim = new SimulatorClient(server.url, admin.token);
  whatsappId = await simConnection(server, admin, sim);
  await sim.faults(whatsappId, { noReplay: true });
  db = new pg.Client({ connectionString: databaseUrl(server.database) });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await db?.end();
  await server?.close();
});

/** Of these ids, how many are durable (a row of the inbox or a stored message), in one snapshot. */
async function durable(ids: string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM session_inbox
              WHERE "whatsappId" = $1 AND event->>'name' = 'message'
                AND event->'payload'->>'id' = ANY($2))
          + (SELECT count(*) FROM messages WHERE wid = ANY($2)) AS n`,
    [whatsappId, ids],
  );
  return Number(rows[0]!.n);
}

/** Messages of this connection the simulator handed over (WhatsApp's receipt sent), from Redis. */
const handedOver = () => server.app.redis.hlen(`${server.app.prefix}:sim:${whatsappId}:delivered`);

/**
 * Handed over and not durable, bracketed: durable is read before and after the handover count,
 * so `high` never undercounts and `low` never overcounts (equal while nothing moves).
 */
async function window(ids: string[], before: number): Promise<{ low: number; high: number }> {
  const stored0 = await durable(ids);
  const handed = (await handedOver()) - before;
  const stored1 = await durable(ids);
  return { low: handed - stored1, high: handed - stored0 };
}

/**
 * An INSERT into the inbox waiting for a lock (the session's append, held by the test). Asked
 * inside the test's open transaction, so the backend status snapshot is cleared first (Postgres
 * keeps the first one until the transaction ends).
 */
const appendWaiting = async () => {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rowCount } = await db.query(
    `SELECT 1 FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'
        AND query LIKE 'INSERT INTO session_inbox%'`,
  );
  return rowCount ? true : undefined;
};

async function offer(count: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < count; from += 1_000) {
    const messages = Array.from({ length: Math.min(1_000, count - from) }, (_, i) => ({
      whatsappId,
      from: `55119444${String((from + i) % 40).padStart(5, '0')}`,
      body: `${tag} ${from + i}`,
    }));
    ids.push(...(await sim.inboundBatch(messages)).ids);
  }
  return ids;
}

describe('receipt → durable inbox window', () => {
  it('while appends wait on a lock, 2,000 waiting messages are not handed over: one read at most', async () => {
    const before = await handedOver();
    // SHARE conflicts with the INSERT's ROW EXCLUSIVE: the session's append waits for the commit.
    await db.query('BEGIN');
    await db.query('LOCK TABLE session_inbox IN SHARE MODE');
    let ids: string[] = [];
    let widest = 0;
    try {
      ids = await offer(2_000, 'janela');
      await until(appendWaiting, 10_000);
      // Sampled while the lock holds (the device's wake-ups and its 2 s poll keep coming).
      for (let i = 0; i < 40; i++) {
        const { low, high } = await window(ids, before);
        // Nothing moves while the lock holds: both ends agree.
        expect(low).toBe(high);
        widest = Math.max(widest, high);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await db.query('COMMIT');
    }
    process.stdout.write(
      `inbox window: ${widest} messages handed over and not durable at most while appends waited (read batch ${READ_BATCH})\n`,
    );
    expect(widest).toBeGreaterThan(0);
    expect(widest).toBeLessThanOrEqual(READ_BATCH);
    // Released: every message is stored, once, none handed over twice, and the window stays small.
    let flowing = { low: 0, high: 0 };
    await until(async () => {
      const { low, high } = await window(ids, before);
      flowing = { low: Math.max(flowing.low, low), high: Math.max(flowing.high, high) };
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM messages WHERE wid = ANY($1)`,
        [ids],
      );
      return rows[0]!.n === ids.length || undefined;
    }, 90_000);
    process.stdout.write(
      `inbox window once released: at most ${flowing.low}–${flowing.high} (bracket of the samples)\n`,
    );
    expect(flowing.low).toBeLessThanOrEqual(READ_BATCH);
    const { rows: doubled } = await db.query(
      `SELECT wid FROM messages WHERE wid = ANY($1) GROUP BY wid HAVING count(*) > 1`,
      [ids],
    );
    expect(doubled).toEqual([]);
    expect((await sim.deliveries(whatsappId)).redelivered).toEqual([]);
  }, 150_000);

  it('appends with every connection of the shared pool taken', async () => {
    const size = server.app.config.DB_POOL_SIZE;
    const runners = Array.from({ length: size }, () => server.app.ds.createQueryRunner());
    let ids: string[] = [];
    try {
      await Promise.all(runners.map((r) => r.connect()));
      // Straight into the simulated network (Redis): the control API itself needs the pool.
      const network = simulatorOf(server.app).network;
      const at = Date.now();
      ids = ['SEMPOOL1', 'SEMPOOL2', 'SEMPOOL3'];
      await network.inboundMany(
        ids.map((id, i) => ({
          connectionId: String(whatsappId),
          message: { id, from: '5511944400099', body: `sem pool ${i}`, at },
        })),
      );
      await until(async () => ((await durable(ids)) === ids.length ? true : undefined), 10_000);
      // Nothing was handled: the handlers wait for the pool.
      const { rows } = await db.query(`SELECT 1 FROM messages WHERE wid = ANY($1)`, [ids]);
      expect(rows).toEqual([]);
    } finally {
      await Promise.all(runners.map((r) => r.release()));
    }
    await until(async () => {
      const { rows } = await db.query(`SELECT 1 FROM messages WHERE wid = ANY($1)`, [ids]);
      return rows.length === ids.length || undefined;
    }, 20_000);
  }, 60_000);
});
