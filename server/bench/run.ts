// `npm run bench`: (a) inbound through the simulator at rising rates, due time → agent socket;
// (b) raw Postgres single-row insert transactions on the same machine; (c) GET /tickets page 1
// for an agent on a seeded data set. Rewrites the measured part of BENCHMARKS.md (the notes
// below its marker line are kept).
// Sizes: BENCH_SECONDS per rate step (default 60), BENCH_RATES, BENCH_TICKETS / BENCH_MESSAGES /
// BENCH_COMPANIES for (c) (default 200k / 2M / 50), BENCH_POOL (the server's DB_POOL_SIZE),
// BENCH_PARTS (default inbound,raw,list).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { rawInsertRate, type RawResult } from './raw-pg.js';
import { runInboundStep, setupInbound, type InboundStep } from './inbound.js';
import { listLatency } from './list.js';
import { seed } from './seed.js';
import { startServerProcess } from './server-process.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('BENCH_SECONDS', 60);
const RATES = (process.env.BENCH_RATES ?? '250,500,1000,1500,2000').split(',').map(Number);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'inbound,raw,list').split(','));
const POOL = env('BENCH_POOL', 40);
const SIZE = {
  companies: env('BENCH_COMPANIES', 50),
  tickets: env('BENCH_TICKETS', 200_000),
  messages: env('BENCH_MESSAGES', 2_000_000),
};
const CONNECTIONS = 20;
const CONTACTS = 5000;
const ADMIN_URL = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SUPER = { email: 'bench-admin@atende.local', password: 'bench-admin-123' };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NOTES_MARK = '<!-- notes: kept by the bench runner -->';
const log = (line: string) => process.stdout.write(`${line}\n`);

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

/** CPU seconds (user + system) a process has used, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  const file = `/proc/${pid}/stat`;
  if (!pid || !existsSync(file)) return NaN;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const ms = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(1));

type Step = InboundStep & { serverCpuMsPerMessage: number; load: number[] };

function report(
  started: string,
  inbound: Step[],
  raw: RawResult[],
  list: (Awaited<ReturnType<typeof listLatency>> & { size: string }) | undefined,
): string {
  const rawBest = raw.reduce((a, b) => Math.max(a, b.txPerSecond), 0);
  const met = inbound.filter((s) => s.received === s.offered && s.p99 <= 150);
  const best = met.reduce((a, b) => Math.max(a, b.sustained), 0);
  const cpu = os.cpus();
  const lines = [
    '# Benchmarks',
    '',
    `Date: ${started}. Machine: ${cpu[0]?.model ?? 'unknown'} × ${cpu.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.version}; Postgres and Redis on the same machine.`,
    `Command: \`BENCH_SECONDS=${SECONDS} BENCH_RATES=${RATES.join(',')} BENCH_TICKETS=${SIZE.tickets} BENCH_MESSAGES=${SIZE.messages} BENCH_COMPANIES=${SIZE.companies} BENCH_POOL=${POOL} npm run bench\``,
    `Server: one process, ROLE=all, DB_POOL_SIZE=${POOL}, started by the runner; the load generator and the agent socket run in the runner's process.`,
    '',
  ];
  if (inbound.length) {
    lines.push(
      `## (a) Inbound through the simulator: ${CONNECTIONS} connections, ${CONTACTS} contacts, one company, ${SECONDS} s per step`,
      '',
      'Latency: from the moment a message was due (offered schedule) to the agent socket receiving its `appMessage` create event.',
      '',
      "Server CPU: user + system CPU time of the server process per delivered message. Load: the machine's 1-minute load average before and after the step (2 cores; other work on the machine shows here).",
      '',
      '| offered msg/s | offered | accepted | at agent socket | errors | sustained msg/s | p50 ms | p99 ms | max ms | server CPU ms/msg | load |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...inbound.map(
        (r) =>
          `| ${r.rate} | ${r.offered} | ${r.accepted} | ${r.received} | ${r.errors} | ${r.sustained.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.serverCpuMsPerMessage.toFixed(2)} | ${r.load.map((l) => l.toFixed(1)).join(' → ')} |`,
      ),
      '',
      `Highest step with every message delivered and p99 ≤ 150 ms: ${best ? `${best.toFixed(0)} msg/s` : 'none'}. Target ≥ 1,000 msg/s: **${best >= 1000 ? 'met' : 'not met'}**.`,
      '',
    );
  }
  if (raw.length) {
    const top = inbound.reduce((a, b) => Math.max(a, b.sustained), 0);
    const ratio = top / rawBest;
    lines.push(
      '## (b) Raw Postgres: single-row INSERT transactions (BEGIN, INSERT, COMMIT), synchronous_commit on',
      '',
      raw.map((r) => `${r.clients} clients: ${r.txPerSecond.toFixed(0)} tx/s`).join('; ') + '.',
      '',
      inbound.length
        ? `Ratio (a) / (b) = highest sustained ${top.toFixed(0)} msg/s / ${rawBest.toFixed(0)} tx/s = **${ratio.toFixed(2)}** (target ≥ 0.30: **${ratio >= 0.3 ? 'met' : 'not met'}**; with the latency target also required, (a) is ${best.toFixed(0)} msg/s).`
        : 'Ratio: (a) not run.',
      '',
    );
  }
  if (list) {
    lines.push(
      `## (c) GET /tickets page 1 for an agent: ${list.size}`,
      '',
      `p50 ${ms(list.p50)} ms, p95 ${ms(list.p95)} ms over ${list.requests} sequential requests after 20 warm-up (target p95 ≤ 30 ms: **${list.p95 <= 30 ? 'met' : 'not met'}**).`,
      '',
    );
  }
  return lines.join('\n');
}

async function main() {
  const url = await createDb();
  log(`database ${url}`);
  const serverEnv = (tag: string) => ({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    REDIS_PREFIX: `bench-${tag}-${Date.now()}`,
    LOG_LEVEL: 'warn',
    SIMULATOR: 'on',
    OUTBOUND_PER_MINUTE: '100000',
    DB_POOL_SIZE: String(POOL),
    ADMIN_EMAIL: SUPER.email,
    ADMIN_PASSWORD: SUPER.password,
  });
  let server = await startServerProcess(serverEnv('inbound'));
  const started = new Date().toISOString();
  const inbound: Step[] = [];
  let raw: RawResult[] = [];
  let list: Parameters<typeof report>[3];
  try {
    if (PARTS.has('inbound')) {
      const setup = await setupInbound(server.url, SUPER, CONNECTIONS);
      let first = 0;
      for (const rate of RATES) {
        const cpu0 = cpuSeconds(server.child.pid);
        const load0 = os.loadavg()[0]!;
        const step = await runInboundStep(setup, rate, SECONDS, CONTACTS, first);
        first += step.offered;
        inbound.push({
          ...step,
          serverCpuMsPerMessage: ((cpuSeconds(server.child.pid) - cpu0) * 1000) / step.received,
          load: [load0, os.loadavg()[0]!],
        });
        log(`inbound ${JSON.stringify(inbound.at(-1))}`);
        // A step that left a backlog makes every later step measure that backlog: stop here.
        if (step.received < step.accepted) break;
      }
      setup.socket.close();
    }
    // A fresh server for the rest, so a backlog left by the last step does not weigh on them.
    await server.stop();
    if (PARTS.has('raw')) {
      raw = await rawInsertRate(url, 10);
      log(`raw ${JSON.stringify(raw)}`);
    }
    if (PARTS.has('list')) {
      const t0 = performance.now();
      const seeded = await seed(url, SIZE);
      server = await startServerProcess(serverEnv('list'));
      log(`seeded ${JSON.stringify(seeded)} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      const result = await listLatency(
        server.url,
        { email: seeded.agentEmail, password: seeded.agentPassword },
        300,
      );
      list = {
        ...result,
        size: `${seeded.tickets} tickets, ${seeded.messages} messages, ${seeded.companies} companies (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      };
      log(`list ${JSON.stringify(list)}`);
    }
  } finally {
    await server.stop();
  }
  const file = path.join(root, 'BENCHMARKS.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const notes = old.includes(NOTES_MARK) ? old.slice(old.indexOf(NOTES_MARK)) : `${NOTES_MARK}\n`;
  const text = `${report(started, inbound, raw, list)}\n${notes}`;
  writeFileSync(file, text);
  log(text);
}

await main();
process.exit(0);
