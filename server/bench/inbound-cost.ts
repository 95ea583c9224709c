// What one inbound message costs the server, all of it: the session's store and the socket event,
// and the reactions that run after it (the domain-event consumers: routing, timers, campaigns,
// prompts) until every consumer has caught up. `npm run bench` measures CPU only until the agent
// socket has each message, while the consumers may still be working behind; this one waits for
// them, so a change that makes them keep up is not counted as a cost.
//
//   COST_RATE=150 COST_SECONDS=20 npx tsx bench/inbound-cost.ts
//
// Two phases on one server process: `first` (every message from a new contact: a contact and a
// ticket are created) over the 5,000 contacts, then `known` (the same contacts again: a new message
// into the open ticket). Prints one JSON line per phase.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { runInboundStep, setupInbound } from './inbound.js';
import { startServerProcess } from './server-process.js';

const RATE = Number(process.env.COST_RATE ?? 150);
const SECONDS = Number(process.env.COST_SECONDS ?? 20);
const CONTACTS = 5000;
const CONNECTIONS = 20;
const ADMIN_URL = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SUPER = { email: 'cost-admin@atende.local', password: 'cost-admin-123' };

function cpuSeconds(pid: number | undefined): number {
  const file = `/proc/${pid}/stat`;
  if (!pid || !existsSync(file)) return NaN;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const name = `atende_cost_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const server = await startServerProcess({
  NODE_ENV: 'test',
  DATABASE_URL: url.toString(),
  REDIS_PREFIX: `cost-${Date.now()}`,
  LOG_LEVEL: 'warn',
  SIMULATOR: 'on',
  OUTBOUND_PER_MINUTE: '100000',
  DB_POOL_SIZE: '40',
  ADMIN_EMAIL: SUPER.email,
  ADMIN_PASSWORD: SUPER.password,
});
const db = new pg.Client({ connectionString: url.toString() });
await db.connect();

/**
 * Resolves once every received message is stored (the sessions' inboxes are empty), every change
 * numbered, and every domain event numbered and passed by every consumer.
 */
async function consumersCaughtUp(timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ behind: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM session_inbox)
           OR EXISTS (SELECT 1 FROM change_pending)
           OR EXISTS (SELECT 1 FROM domain_events WHERE seq IS NULL)
           OR EXISTS (SELECT 1 FROM domain_event_cursors c, domain_event_counter n
                       WHERE c.position < n.last) AS behind`,
    );
    if (!rows[0]!.behind) return;
    if (Date.now() > deadline) throw new Error('consumers did not catch up');
    await new Promise((r) => setTimeout(r, 100));
  }
}

try {
  const setup = await setupInbound(server.url, SUPER, CONNECTIONS);
  await consumersCaughtUp();
  let first = 0;
  for (const phase of ['first', 'known'] as const) {
    const seconds = phase === 'first' ? Math.ceil(CONTACTS / RATE) : SECONDS;
    const cpu0 = cpuSeconds(server.child.pid);
    const load0 = os.loadavg()[0]!;
    const t0 = performance.now();
    const step = await runInboundStep(setup, RATE, seconds, CONTACTS, first);
    const delivered = performance.now();
    await consumersCaughtUp();
    const cpuAll = cpuSeconds(server.child.pid) - cpu0;
    first += step.offered;
    process.stdout.write(
      `${JSON.stringify({
        phase,
        rate: RATE,
        offered: step.offered,
        deliveredInWindow: step.received,
        sustained: Math.round(step.sustained),
        p50: Math.round(step.p50),
        p99: Math.round(step.p99),
        consumersBehindMs: Math.round(performance.now() - delivered),
        wallS: Math.round((performance.now() - t0) / 1000),
        cpuMsPerMessage: Number(((cpuAll * 1000) / step.offered).toFixed(2)),
        load: [load0, os.loadavg()[0]!],
      })}\n`,
    );
  }
  setup.socket.close();
} finally {
  await db.end();
  await server.stop();
  const drop = new pg.Client({ connectionString: ADMIN_URL });
  await drop.connect();
  await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await drop.end();
}
process.exit(0);
