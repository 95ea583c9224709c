// (e) Several processes: the inbound load of (a) on api and worker processes, then a failover
// step: kill -9 of one worker half-way, its sessions taken over by lease, and every accepted
// message counted per id in Postgres and per socket.
import os from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';
import { agentSocket, runInboundStep, setupInbound, type InboundStep } from './inbound.js';
import type { Cluster } from './server-process.js';

export type ProcessStep = InboundStep & {
  serverCpuMsPerMessage: number;
  load: number[];
  /** CPU ms per delivered message of the api processes and of the workers. */
  apiCpuMs?: number;
  workerCpuMs?: number;
};

export interface ProcessesResult {
  apis: number;
  workers: number;
  /** Sessions per worker once placed, e.g. "10 + 10". */
  spread: string;
  spreadMs: number;
  steps: ProcessStep[];
  failover?: {
    step: ProcessStep;
    victimSessions: number;
    takeoverMs: number;
    storedOnce: number;
    /** Not stored after the wait but durable in session_inbox (received, not handled yet). */
    inInbox: number;
    /** Neither stored nor in the inbox. */
    lost: number;
    /** Of the lost: handed over by the simulator (WhatsApp's receipt) and never stored. */
    lostHandedOver: number;
    doubled: number;
    missingInFeed: number;
    settleMs: number;
  };
}

interface Options {
  superUser: { email: string; password: string };
  connections: number;
  contacts: number;
  rates: number[];
  seconds: number;
  failoverRate: number;
  cpuSeconds: (pid: number | undefined) => number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pid in each connection's lease owner (host:pid:random:epoch), or 0 when free. */
async function holders(redis: Redis, prefix: string, ids: number[]): Promise<number[]> {
  const values = await redis.mget(ids.map((id) => `${prefix}:wa:lease:${id}`));
  return values.map((v) => (v ? Number(v.split(':')[1]) : 0));
}

export async function runProcesses(
  cluster: Cluster,
  prefix: string,
  databaseUrl: string,
  options: Options,
): Promise<ProcessesResult> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const urls = cluster.apis.map((a) => a.url);
  const started = performance.now();
  try {
    const setup = await setupInbound(urls[0]!, options.superUser, options.connections);
    setup.bases = urls;
    setup.others = await Promise.all(urls.slice(1).map((u) => agentSocket(u, setup.token)));
    // Placement by lease: every worker at its fair share (the first one took all, then shed).
    const workerPids = cluster.workers.map((w) => w.child.pid!);
    const share = Math.ceil(options.connections / workerPids.length);
    let per: number[] = [];
    for (const end = Date.now() + 60_000; Date.now() < end; await sleep(200)) {
      const pids = await holders(redis, prefix, setup.connections);
      per = workerPids.map((pid) => pids.filter((p) => p === pid).length);
      if (pids.every((p) => p) && per.every((n) => n <= share)) break;
    }
    const spreadMs = performance.now() - started;

    const cpuOf = (list: { child: { pid?: number } }[]) =>
      list.reduce((sum, p) => sum + options.cpuSeconds(p.child.pid), 0);
    const cpu = () => cpuOf(cluster.all());
    const steps: ProcessStep[] = [];
    let first = 0;
    for (const rate of options.rates) {
      const cpu0 = cpu();
      const api0 = cpuOf(cluster.apis);
      const load0 = os.loadavg()[0]!;
      const step = await runInboundStep(setup, rate, options.seconds, options.contacts, first);
      first += step.offered;
      const apiCpu = cpuOf(cluster.apis) - api0;
      const allCpu = cpu() - cpu0;
      steps.push({
        ...step,
        serverCpuMsPerMessage: (allCpu * 1000) / step.received,
        apiCpuMs: (apiCpu * 1000) / step.received,
        workerCpuMs: ((allCpu - apiCpu) * 1000) / step.received,
        load: [load0, os.loadavg()[0]!],
      });
      process.stdout.write(
        `processes step ${JSON.stringify({ ...steps.at(-1), ids: undefined, sockets: undefined })}\n`,
      );
      if (step.received < step.accepted) break;
    }

    // Failover: kill -9 of the first worker half-way through a step.
    const victim = cluster.workers[0]!;
    const victimPid = victim.child.pid!;
    const before = await holders(redis, prefix, setup.connections);
    const victimSessions = before.filter((p) => p === victimPid).length;
    let killedAt = 0;
    let takeoverMs = NaN;
    const watch = (async () => {
      while (!killedAt) await sleep(50);
      for (const end = Date.now() + 120_000; Date.now() < end; await sleep(100)) {
        const pids = await holders(redis, prefix, setup.connections);
        if (pids.every((p) => p && p !== victimPid)) {
          takeoverMs = Date.now() - killedAt;
          return;
        }
      }
    })();
    const load0 = os.loadavg()[0]!;
    const step = await runInboundStep(
      setup,
      options.failoverRate,
      options.seconds,
      options.contacts,
      first,
      () => {
        victim.child.kill('SIGKILL');
        killedAt = Date.now();
      },
    );
    await watch;
    // What the step left behind is stored by the survivor: wait until every id is, or 60 s.
    const t0 = performance.now();
    let rows: { wid: string; n: number }[] = [];
    for (const end = Date.now() + 60_000; Date.now() < end; await sleep(500)) {
      rows = (
        await db.query<{ wid: string; n: number }>(
          `SELECT wid, count(*)::int AS n FROM messages WHERE wid = ANY($1) GROUP BY wid`,
          [step.ids],
        )
      ).rows;
      if (rows.length >= step.ids.length) break;
    }
    const settleMs = performance.now() - t0;
    const missingIds = new Set(step.ids);
    for (const r of rows) missingIds.delete(r.wid);
    // Not stored yet but durable: in a connection's inbox, waiting for its handlers.
    const inInbox = missingIds.size
      ? (
          await db.query<{ id: string }>(
            `SELECT event->'payload'->>'id' AS id FROM session_inbox
              WHERE event->>'name' = 'message' AND event->'payload'->>'id' = ANY($1)`,
            [[...missingIds]],
          )
        ).rows.map((r) => r.id)
      : [];
    for (const id of inInbox) missingIds.delete(id);
    // A lost message that the simulator handed over was in the killed worker's memory between
    // WhatsApp's receipt and its write-ahead inbox (the simulator never hands it over again).
    const lostIds = [...missingIds];
    const handed = new Set<string>();
    if (lostIds.length) {
      for (const id of setup.connections) {
        const counts = await redis.hmget(`${prefix}:sim:${id}:delivered`, ...lostIds);
        counts.forEach((n, i) => n && handed.add(lostIds[i]!));
      }
    }
    const socketMissing = [...new Set(step.sockets.flatMap((c) => c.missingIds))];
    const inFeed = socketMissing.length
      ? (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM messages m JOIN change_log c
                ON c.entity = 'message' AND c.action = 'create' AND c."entityId" = m.id
              WHERE m.wid = ANY($1)`,
            [socketMissing],
          )
        ).rows[0]!.n
      : 0;
    for (const s of [setup.socket, ...(setup.others ?? [])]) s.close();
    return {
      apis: cluster.apis.length,
      workers: cluster.workers.length,
      spread: per.join(' + '),
      spreadMs,
      steps,
      failover: {
        step: { ...step, serverCpuMsPerMessage: NaN, load: [load0, os.loadavg()[0]!] },
        victimSessions,
        takeoverMs,
        storedOnce: rows.filter((r) => r.n === 1).length,
        inInbox: new Set(inInbox).size,
        lost: missingIds.size,
        lostHandedOver: handed.size,
        doubled: rows.filter((r) => r.n > 1).length,
        missingInFeed: inFeed,
        settleMs,
      },
    };
  } finally {
    redis.disconnect();
    await db.end();
  }
}
