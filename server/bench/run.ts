// `npm run bench`: (a) inbound through the simulator at rising rates, send → agent socket;
// (b) raw Postgres single-row insert transactions on the same machine; (c) GET /tickets page 1
// for an agent on a seeded data set. Writes BENCHMARKS.md at the repository root.
// Sizes: BENCH_SECONDS (per rate step, default 10; the target is 60), BENCH_RATES,
// BENCH_TICKETS / BENCH_MESSAGES / BENCH_COMPANIES for (c) (default 200k / 2M / 50).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { io } from 'socket.io-client';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { SimulatorClient } from '../test/simulator-client.js';
import { seed } from './seed.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('BENCH_SECONDS', 10);
const RATES = (process.env.BENCH_RATES ?? '250,500,1000,2000').split(',').map(Number);
const CONNECTIONS = 20;
const CONTACTS = 5000;
const ADMIN_URL = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function createDb(): Promise<string> {
  const name = `atende_bench_${randomBytes(3).toString('hex')}`;
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function call(base: string, method: string, p: string, token?: string, body?: unknown) {
  const res = await fetch(base + p, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function inboundBench(base: string, config: ReturnType<typeof loadConfig>) {
  const rootLogin = await call(base, 'POST', '/auth/login', undefined, {
    email: config.ADMIN_EMAIL,
    password: config.ADMIN_PASSWORD,
  });
  const plan = await call(base, 'POST', '/plans', rootLogin.body.token, {
    name: `Bench ${Date.now()}`,
    users: 10,
    connections: 50,
    queues: 5,
    value: 1,
  });
  const email = `bench${Date.now()}@bench.test`;
  await call(base, 'POST', '/companies', rootLogin.body.token, {
    name: `Bench ${Date.now()}`,
    email,
    planId: plan.body.id,
    password: 'Senha123',
    dueDate: '2099-12-31',
  });
  const admin = (
    await call(base, 'POST', '/auth/login', undefined, { email, password: 'Senha123' })
  ).body;
  const sim = new SimulatorClient(base, admin.token);
  const ids: number[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const res = await call(base, 'POST', '/whatsapp', admin.token, {
      name: `Bench ${i}`,
      provider: 'simulator',
    });
    ids.push(res.body.id);
  }
  await Promise.all(ids.map((id) => sim.connect(id)));
  const socket = io(base, { transports: ['websocket'], auth: { token: admin.token } });
  await new Promise<void>((r) => socket.once('connect', () => r()));
  await new Promise<void>((r) => socket.emit('joinNotification', {}, () => r()));
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  socket.on(
    `company-${admin.user.companyId}-appMessage`,
    (e: { action: string; message: { wid: string } }) => {
      const t = e.action === 'create' && sentAt.get(e.message.wid);
      if (t) {
        latencies.push(performance.now() - t);
        sentAt.delete(e.message.wid);
      }
    },
  );
  const results = [];
  let n = 0;
  for (const rate of RATES) {
    latencies.length = 0;
    sentAt.clear();
    let errors = 0;
    let sent = 0;
    const start = performance.now();
    const total = rate * SECONDS;
    const inflight = new Set<Promise<void>>();
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const k = n++;
      const id = `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;
      const t0 = performance.now();
      sentAt.set(id, t0);
      const p = sim
        .inbound({
          whatsappId: ids[k % CONNECTIONS]!,
          from: `5511${String(900000000 + (k % CONTACTS))}`,
          body: `bench ${k}`,
          id,
        })
        .then(
          () => void sent++,
          () => void errors++,
        )
        .finally(() => inflight.delete(p));
      inflight.add(p);
      if (inflight.size > 2000) await Promise.race(inflight);
    }
    await Promise.all(inflight);
    const deadline = performance.now() + 30_000;
    while (latencies.length < sent && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const elapsed = (performance.now() - start) / 1000;
    results.push({
      rate,
      sent,
      received: latencies.length,
      errors,
      sustained: latencies.length / elapsed,
      p50: pct(latencies, 50),
      p99: pct(latencies, 99),
    });
    process.stdout.write(`inbound ${JSON.stringify(results.at(-1))}\n`);
  }
  socket.close();
  return results;
}

async function rawPgBench(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 20 });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_raw (id serial PRIMARY KEY, body text, at timestamptz DEFAULT now())',
  );
  let count = 0;
  const end = performance.now() + 5000;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (performance.now() < end) {
        const c = await pool.connect();
        await c.query('BEGIN');
        await c.query('INSERT INTO bench_raw (body) VALUES ($1)', ['x']);
        await c.query('COMMIT');
        c.release();
        count++;
      }
    }),
  );
  await pool.end();
  return count / 5;
}

async function listBench(base: string, url: string, config: ReturnType<typeof loadConfig>) {
  const info = await seed(url, {
    companies: env('BENCH_COMPANIES', 50),
    tickets: env('BENCH_TICKETS', 200_000),
    messages: env('BENCH_MESSAGES', 2_000_000),
  });
  const login = await call(base, 'POST', '/auth/login', undefined, {
    email: info.agentEmail,
    password: info.agentPassword,
  });
  const token = login.body.token;
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    const res = await call(base, 'GET', '/tickets?status=pending&pageNumber=1', token);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    times.push(performance.now() - t0);
  }
  void config;
  return { ...info, p50: pct(times.slice(20), 50), p95: pct(times.slice(20), 95) };
}

async function main() {
  const url = await createDb();
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    PORT: '0',
    DATABASE_URL: url,
    REDIS_PREFIX: `bench-${Date.now()}`,
    LOG_LEVEL: 'silent',
    SIMULATOR: 'on',
    OUTBOUND_PER_MINUTE: '100000',
  });
  const server = await startServer(config);
  const started = new Date().toISOString();
  try {
    const inbound = await inboundBench(server.url, config);
    const raw = await rawPgBench(url);
    const list = await listBench(server.url, url, config);
    const best = inbound.reduce((a, b) => (b.sustained > a.sustained ? b : a));
    const lines = [
      '# Benchmarks',
      '',
      `Date: ${started}. Machine: ${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.version}.`,
      `Command: \`BENCH_SECONDS=${SECONDS} BENCH_RATES=${RATES.join(',')} npm run bench\` (one process, ROLE=all, Postgres and Redis on the same machine).`,
      '',
      `## (a) Inbound through the simulator: ${CONNECTIONS} connections, ${CONTACTS} contacts, ${SECONDS} s per step`,
      '',
      '| offered msg/s | accepted | at agent socket | errors | sustained msg/s | p50 ms | p99 ms |',
      '|---|---|---|---|---|---|---|',
      ...inbound.map(
        (r) =>
          `| ${r.rate} | ${r.sent} | ${r.received} | ${r.errors} | ${r.sustained.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`,
      ),
      '',
      '## (b) Raw Postgres: single-row INSERT transactions, 20 clients, 5 s',
      '',
      `${raw.toFixed(0)} tx/s. Ratio (a) best sustained / (b): ${(best.sustained / raw).toFixed(2)} (target ≥ 0.30).`,
      '',
      `## (c) GET /tickets page 1 for an agent: ${list.tickets} tickets, ${list.messages} messages, ${list.companies} companies`,
      '',
      `p50 ${list.p50.toFixed(1)} ms, p95 ${list.p95.toFixed(1)} ms over 280 requests after 20 warm-up (target p95 ≤ 30 ms).`,
      '',
      'Targets: ≥1,000 msg/s sustained with p99 ≤150 ms; ratio ≥0.30; GET /tickets p95 ≤30 ms.',
      '',
    ];
    writeFileSync(path.join(root, 'BENCHMARKS.md'), `${lines.join('\n')}\n`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await server.close();
  }
}

await main();
process.exit(0);
