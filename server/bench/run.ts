// `npm run bench`: (a) inbound through the simulator at rising rates, due time → agent socket;
// (b) raw Postgres single-row insert transactions on the same machine; (c) GET /tickets page 1
// for an agent on a seeded data set. Rewrites the measured part of BENCHMARKS.md (the notes
// below its marker line are kept).
// Sizes: BENCH_SECONDS per rate step (default 60), BENCH_RATES, BENCH_TICKETS / BENCH_MESSAGES /
// BENCH_COMPANIES for (c) (default 200k / 2M / 50), BENCH_POOL (the server's DB_POOL_SIZE),
// BENCH_PARTS (default inbound,raw,list,import,processes,fanout); (d) a 10,000-row contact-list
// import; (e) `processes`: the inbound of (a) on BENCH_PROCESSES (default 2x2: two ROLE=api and
// two ROLE=worker processes), then a step at BENCH_FAILOVER_RATE during which one worker gets
// kill -9 (BENCH_LEASE_MS lease); (f) `fanout`: BENCH_FANOUT_SOCKETS agents' sockets of one
// company (BENCH_FANOUT_USERS users) over the api processes, at BENCH_FANOUT_RATE msg/s.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { rawInsertRate, type RawResult } from './raw-pg.js';
import { runInboundStep, setupInbound, type InboundStep } from './inbound.js';
import { fanoutBench, type FanoutResult } from './fanout.js';
import { runProcesses, type ProcessesResult } from './processes.js';
import { importBench, type ImportResult } from './import.js';
import { listLatency } from './list.js';
import { seed } from './seed.js';
import { parseProcesses, startCluster, startServerProcess } from './server-process.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('BENCH_SECONDS', 60);
const RATES = (process.env.BENCH_RATES ?? '250,500,1000,1500,2000').split(',').map(Number);
const PARTS = new Set(
  (process.env.BENCH_PARTS ?? 'inbound,raw,list,import,processes,fanout').split(','),
);
const PROCESSES = process.env.BENCH_PROCESSES ?? '2x2';
const LEASE_MS = env('BENCH_LEASE_MS', 5_000);
/** DB_POOL_SIZE of each process of a cluster (four processes must fit max_connections 100). */
const PROCESS_POOL = env('BENCH_PROCESS_POOL', 15);
const FAILOVER_RATE = env('BENCH_FAILOVER_RATE', RATES[0] ?? 250);
const FANOUT = {
  sockets: env('BENCH_FANOUT_SOCKETS', 500),
  users: env('BENCH_FANOUT_USERS', 500),
  rate: env('BENCH_FANOUT_RATE', 10),
};
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
const startLoad = os.loadavg()[0]!;
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

export type Step = InboundStep & { serverCpuMsPerMessage: number; load: number[] };

function report(
  started: string,
  inbound: Step[],
  raw: RawResult[],
  list: (Awaited<ReturnType<typeof listLatency>> & { size: string }) | undefined,
  imports: ImportResult[] = [],
  processes?: ProcessesResult,
  fanout?: FanoutResult & { load: number[] },
): string {
  const rawBest = raw.reduce((a, b) => Math.max(a, b.txPerSecond), 0);
  const met = inbound.filter((s) => s.received === s.offered && s.p99 <= 150);
  const best = met.reduce((a, b) => Math.max(a, b.sustained), 0);
  const cpu = os.cpus();
  const lines = [
    '# Benchmarks',
    '',
    `Date: ${started}. Machine: ${cpu[0]?.model ?? 'unknown'} × ${cpu.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.version}; Postgres and Redis on the same machine.`,
    `Command: \`BENCH_SECONDS=${SECONDS} BENCH_RATES=${RATES.join(',')} BENCH_PARTS=${[...PARTS].join(',')} BENCH_PROCESSES=${PROCESSES} BENCH_TICKETS=${SIZE.tickets} BENCH_MESSAGES=${SIZE.messages} BENCH_COMPANIES=${SIZE.companies} BENCH_POOL=${POOL} npm run bench\``,
    `Server: one process, ROLE=all, DB_POOL_SIZE=${POOL}, started by the runner (parts a–d; (e) and (f) start their own processes); the load generator and the agent socket run in the runner's process.`,
    `Load average (1 min) at the start and end of the run: ${startLoad.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores: the machine is shared with other engineers' builds and tests, so figures move with it.`,
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
  if (imports.length) {
    lines.push(
      '## (d) Contact-list import: a 10,000-row sheet uploaded to POST /contact-lists/:id/upload',
      '',
      'Accepted: the upload answered 202 (file received, checked, job queued). Done: the import job reported `done` (sheet read in a worker thread, rows inserted in batches of 2,000).',
      '',
      '| sheet | rows | created | accepted ms | done ms |',
      '|---|---|---|---|---|',
      ...imports.map(
        (r) =>
          `| ${r.kind} | ${r.rows} | ${r.created} | ${r.acceptedMs.toFixed(0)} | ${r.doneMs.toFixed(0)} |`,
      ),
      '',
    );
  }
  if (processes) lines.push(...processesReport(processes, inbound));
  if (fanout) lines.push(...fanoutReport(fanout));
  return lines.join('\n');
}

function stepRow(r: ProcessesResult['steps'][number]): string {
  return `| ${r.rate} | ${r.offered} | ${r.accepted} | ${r.received} | ${r.errors} | ${r.sustained.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.serverCpuMsPerMessage.toFixed(2)}${r.apiCpuMs === undefined ? '' : ` (api ${r.apiCpuMs.toFixed(2)}, workers ${r.workerCpuMs!.toFixed(2)})`} | ${r.sockets.map((c) => `${c.received}/${c.missing}/${c.doubled}`).join(', ')} | ${r.load.map((l) => l.toFixed(1)).join(' → ')} |`;
}

function processesReport(p: ProcessesResult, single: Step[]): string[] {
  const top = p.steps.reduce((a, b) => Math.max(a, b.sustained), 0);
  const met = p.steps.filter((s) => s.received === s.offered && s.p99 <= 150);
  const best = met.reduce((a, b) => Math.max(a, b.sustained), 0);
  const singleTop = single.reduce((a, b) => Math.max(a, b.sustained), 0);
  const f = p.failover;
  return [
    `## (e) Several processes: ${p.apis} × ROLE=api, ${p.workers} × ROLE=worker on one Postgres and Redis (DB_POOL_SIZE=${PROCESS_POOL} each)`,
    '',
    `Same load as (a) (${CONNECTIONS} connections, ${CONTACTS} contacts, ${SECONDS} s per step); the load generator sends its batches to the api processes in turn (\`POST /simulator/inbound/batch\` on an api process; the simulator's state is in Redis, the sessions run in the workers). One agent socket on each api process: the first is timed, both are counted. Sessions spread by lease: each worker runs at most ceil(connections / live workers) and hands extras over; here ${p.spread} (placement reached ${(p.spreadMs / 1000).toFixed(1)} s after the runner began creating the connections). Server CPU: all processes together.`,
    '',
    '| offered msg/s | offered | accepted | at agent socket | errors | sustained msg/s | p50 ms | p99 ms | max ms | server CPU ms/msg | per socket received/missing/doubled | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...p.steps.map(stepRow),
    '',
    `Highest step with every message delivered and p99 ≤ 150 ms: ${best ? `${best.toFixed(0)} msg/s` : 'none'}; highest sustained ${top.toFixed(0)} msg/s${single.length ? ` against ${singleTop.toFixed(0)} msg/s for one process in (a) (×${(top / singleTop).toFixed(2)})` : ''}.`,
    '',
    ...(f
      ? [
          `### Failover: kill -9 of one worker half-way through a ${f.step.seconds} s step at ${f.step.rate} msg/s (SESSION_LEASE_MS=${LEASE_MS})`,
          '',
          `The killed worker held ${f.victimSessions} of ${CONNECTIONS} connections; ${Number.isNaN(f.takeoverMs) ? 'the survivor did not hold all of them within 120 s of the kill' : `all of them were held by the survivor ${(f.takeoverMs / 1000).toFixed(1)} s after the kill`}. Accepted ${f.step.accepted} messages: stored once ${f.storedOnce}, not stored yet but durable in the session inbox ${f.inInbox}, lost ${f.lost} (handed over to a session by the simulator, i.e. WhatsApp's receipt sent, and in neither: ${f.lostHandedOver}), doubled ${f.doubled} (counted per id in Postgres, ${(f.settleMs / 1000).toFixed(1)} s after the step for the backlog). Events of the accepted messages per socket (received/missing/doubled): ${f.step.sockets.map((c) => `${c.received}/${c.missing}/${c.doubled}`).join(', ')}; of the missing, in the change feed: ${f.missingInFeed}. Latency over the step: p50 ${ms(f.step.p50)} ms, p99 ${ms(f.step.p99)} ms, max ${ms(f.step.max)} ms; load ${f.step.load.map((l) => l.toFixed(1)).join(' → ')}.`,
          '',
        ]
      : []),
  ];
}

function fanoutReport(f: FanoutResult & { load: number[] }): string[] {
  return [
    `## (f) Fan-out: ${f.sockets} agents' sockets of one company (${f.users} users, one socket each) over ${f.apis} api processes`,
    '',
    `${f.messages} customer messages at ${FANOUT.rate} msg/s through the simulator; each socket is in the company's no-queue room (agents with allTicket, joinNotification). Latency from the message's \`createdAt\` (written inside the storing transaction, so an upper bound of commit → socket; same machine clock) to each socket's \`appMessage\` create. The ${f.sockets} sockets live in the runner's process (its event loop adds to the figures). Users signed in through \`POST /auth/login\` in ${f.loginSeconds.toFixed(0)} s. Load average ${f.load.map((l) => l.toFixed(1)).join(' → ')} (start → end of the part).`,
    '',
    '| pairs (message × socket) | received | doubled | p50 ms | p99 ms | max ms | per message, last socket: p50 / p99 ms | due → socket p99 ms |',
    '|---|---|---|---|---|---|---|---|',
    `| ${f.pairs} | ${f.received} | ${f.doubled} | ${ms(f.p50)} | ${ms(f.p99)} | ${ms(f.max)} | ${ms(f.lastP50)} / ${ms(f.lastP99)} | ${ms(f.dueP99)} |`,
    '',
    `Target p99 ≤ 250 ms (commit → every socket): **${f.lastP99 <= 250 && f.received === f.pairs ? 'met' : 'not met'}**.`,
    '',
  ];
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
  let imports: ImportResult[] = [];
  let processes: ProcessesResult | undefined;
  let fanout: (FanoutResult & { load: number[] }) | undefined;
  const { apis, workers } = parseProcesses(PROCESSES);
  const clusterEnv = (tag: string) => ({
    ...serverEnv(tag),
    SESSION_LEASE_MS: String(LEASE_MS),
    DB_POOL_SIZE: String(PROCESS_POOL),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
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
        log(`inbound ${JSON.stringify({ ...inbound.at(-1), ids: undefined, sockets: undefined })}`);
        // A step that left a backlog makes every later step measure that backlog: stop here.
        if (step.received < step.accepted) break;
      }
      setup.socket.close();
    }
    // A fresh server for the rest, so a backlog left by the last step does not weigh on them.
    await server.stop();
    // Each cluster part on a database of its own: a backlog left in the first one (inbox rows,
    // domain events) would keep the new workers busy before they measure anything.
    if (PARTS.has('processes')) {
      const procsEnv = { ...clusterEnv('procs'), DATABASE_URL: await createDb() };
      const cluster = await startCluster(procsEnv, apis, workers);
      try {
        processes = await runProcesses(cluster, procsEnv.REDIS_PREFIX, procsEnv.DATABASE_URL, {
          superUser: SUPER,
          connections: CONNECTIONS,
          contacts: CONTACTS,
          rates: RATES,
          seconds: SECONDS,
          failoverRate: FAILOVER_RATE,
          cpuSeconds,
        });
      } finally {
        await cluster.stop();
      }
      log(`processes ${JSON.stringify({ ...processes, steps: processes.steps.length })}`);
    }
    if (PARTS.has('fanout')) {
      const fanoutEnv = { ...clusterEnv('fanout'), DATABASE_URL: await createDb() };
      const cluster = await startCluster(fanoutEnv, apis, workers);
      const load0 = os.loadavg()[0]!;
      try {
        const result = await fanoutBench(
          cluster.apis.map((a) => a.url),
          fanoutEnv.DATABASE_URL,
          SUPER,
          { ...FANOUT, seconds: SECONDS },
        );
        fanout = { ...result, load: [load0, os.loadavg()[0]!] };
      } finally {
        await cluster.stop();
      }
      log(`fanout ${JSON.stringify(fanout)}`);
    }
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
    if (PARTS.has('import')) {
      await server.stop();
      server = await startServerProcess(serverEnv('import'));
      imports = await importBench(server.url, SUPER);
      log(`import ${JSON.stringify(imports)}`);
    }
  } finally {
    await server.stop();
  }
  const file = path.join(root, 'BENCHMARKS.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const notes = old.includes(NOTES_MARK) ? old.slice(old.indexOf(NOTES_MARK)) : `${NOTES_MARK}\n`;
  const text = `${report(started, inbound, raw, list, imports, processes, fanout)}\n${notes}`;
  writeFileSync(file, text);
  log(text);
}

await main();
process.exit(0);
