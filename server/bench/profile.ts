// Where an inbound message's time goes, stage by stage, in one process (the server is started
// in-process so its SQL statements and session handlers can be timed):
//   control API call → Redis → session pickup (WhatsApp timestamp → handler start) → handler →
//   each SQL statement (including waiting for a pooled connection) → post-commit steps → socket.
// `PROFILE_RATE=200 PROFILE_SECONDS=10 npx tsx bench/profile.ts` prints a table, biggest total first.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import type { DomainEventHandlers } from '../src/modules/changes/domain-events.js';
import { pct } from './http.js';
import { runInboundStep, setupInbound } from './inbound.js';

const RATE = Number(process.env.PROFILE_RATE ?? 200);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const spans = new Map<string, number[]>();
const record = (name: string, ms: number) => {
  let list = spans.get(name);
  if (!list) spans.set(name, (list = []));
  list.push(ms);
};
async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await run();
  } finally {
    record(name, performance.now() - t0);
  }
}

type Query = (this: PostgresQueryRunner, sql: string, ...rest: unknown[]) => Promise<unknown>;
const query = PostgresQueryRunner.prototype.query as unknown as Query;
(PostgresQueryRunner.prototype as unknown as { query: Query }).query = function (sql, ...rest) {
  return timed(`sql  ${sql.replace(/\s+/g, ' ').trim().slice(0, 80)}`, () =>
    query.call(this, sql, ...rest),
  );
};

const admin = new pg.Client({
  connectionString: process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres',
});
await admin.connect();
const database = `atende_profile_${randomBytes(3).toString('hex')}`;
await admin.query(`CREATE DATABASE ${database}`);
await admin.end();
const superUser = { email: 'profile@atende.local', password: 'profile-123' };
const server = await startServer(
  loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    PORT: '0',
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    REDIS_PREFIX: `profile-${Date.now()}`,
    LOG_LEVEL: 'silent',
    SIMULATOR: 'on',
    ADMIN_EMAIL: superUser.email,
    ADMIN_PASSWORD: superUser.password,
  }),
);
const { sessionEvent, consumers } = server.app.hooks;
sessionEvent.forEach((handler, i) => {
  sessionEvent[i] = (app, connection, event) => {
    if (event.name === 'message') record('pickup', Date.now() - event.payload.timestamp);
    return timed(`handler ${event.name}`, () => handler(app, connection, event));
  };
});
// The reactions to a stored message (routing, timers) are domain-event consumers now.
consumers.forEach((consumer, i) => {
  const on: Record<string, unknown> = {};
  for (const [type, handle] of Object.entries(consumer.on)) {
    const run = handle as (app: unknown, event: unknown) => Promise<void>;
    on[type] = (app: unknown, event: unknown) =>
      timed(`consumer ${consumer.name} ${type}`, () => run(app, event));
  }
  consumers[i] = { ...consumer, on: on as DomainEventHandlers };
});

const setup = await setupInbound(server.url, superUser, 20);
spans.clear();
const step = await runInboundStep(setup, RATE, SECONDS, 5000, 0);
setup.socket.close();
process.stdout.write(`${JSON.stringify(step)}\n`);
const rows = [...spans].map(([name, v]) => ({
  name,
  n: v.length,
  total: v.reduce((a, b) => a + b, 0),
  p50: pct(v, 50),
  p99: pct(v, 99),
}));
for (const r of rows.sort((a, b) => b.total - a.total).slice(0, 40)) {
  process.stdout.write(
    `${r.total.toFixed(0).padStart(9)} ms  n=${String(r.n).padStart(6)}  p50=${r.p50.toFixed(1).padStart(8)}  p99=${r.p99.toFixed(1).padStart(8)}  ${r.name}\n`,
  );
}
await server.close();
process.exit(0);
