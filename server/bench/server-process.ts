// The server under test runs in its own process (ROLE=all), so the load generator and the agent
// socket in the bench process do not share its event loop. `startCluster` runs several: api
// processes (HTTP + sockets) and worker processes (jobs, WhatsApp sessions) on one database and
// Redis prefix.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

let logged = 0;

/**
 * Where a server's stdout (its log) goes: `BENCH_LOG_DIR/<role>-<n>.log` when set (with
 * BENCH_LOG_LEVEL, default info), else nowhere.
 */
function logTarget(env: Record<string, string>): 'ignore' | number {
  const dir = process.env.BENCH_LOG_DIR;
  if (!dir) return 'ignore';
  mkdirSync(dir, { recursive: true });
  env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
  return openSync(path.join(dir, `${env.ROLE ?? 'all'}-${++logged}.log`), 'a');
}

function spawnServer(serverEnv: Record<string, string>, port: number): ChildProcess {
  const env = { ...serverEnv };
  const stdout = logTarget(env);
  return spawn(
    process.execPath,
    [
      ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      'src/main.ts',
    ],
    {
      cwd: serverDir,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', stdout, 'inherit'],
    },
  );
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      // A server still working through a backlog may take long to drain: do not wait for it.
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawnServer(env, port);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not start in time');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, stop: stopper(child) };
}

/**
 * A worker process (ROLE=worker, no HTTP): ready once its session manager beats in Redis
 * (`<prefix>:wa:workers`, the member names its pid).
 */
export async function startWorkerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawnServer({ ...env, ROLE: 'worker' }, 0);
  const redis = new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    // Generous: on a loaded machine a worker's start (tsx, every module's worker) takes minutes.
    const deadline = Date.now() + 300_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}`);
      const members = await redis.zrange(`${env.REDIS_PREFIX}:wa:workers`, 0, -1);
      if (members.some((m) => m.split(':')[1] === String(child.pid))) break;
      if (Date.now() > deadline) throw new Error('worker did not start in time');
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  } finally {
    redis.disconnect();
  }
  return { url: '', child, stop: stopper(child) };
}

export interface Cluster {
  apis: ServerProcess[];
  workers: ServerProcess[];
  all: () => ServerProcess[];
  stop: () => Promise<void>;
}

/** `BENCH_PROCESSES=2x2`: two api processes and two workers (the first api migrates). */
export async function startCluster(
  env: Record<string, string>,
  apis: number,
  workers: number,
): Promise<Cluster> {
  // Whatever started is stopped again if the rest fails (no process left behind).
  const started: ServerProcess[] = [];
  const track = async (p: Promise<ServerProcess>) => {
    const server = await p;
    started.push(server);
    return server;
  };
  let first: ServerProcess;
  let rest: ServerProcess[];
  let running: ServerProcess[];
  try {
    first = await track(startServerProcess({ ...env, ROLE: 'api' }));
    rest = await Promise.all(
      Array.from({ length: apis - 1 }, () => track(startServerProcess({ ...env, ROLE: 'api' }))),
    );
    running = await Promise.all(
      Array.from({ length: workers }, () => track(startWorkerProcess(env))),
    );
  } catch (err) {
    await Promise.all(started.map((p) => p.stop()));
    throw err;
  }
  const cluster: Cluster = {
    apis: [first, ...rest],
    workers: running,
    all: () => [...cluster.apis, ...cluster.workers],
    stop: async () => {
      await Promise.all(cluster.all().map((p) => p.stop()));
    },
  };
  return cluster;
}

/** `2x2` → 2 api and 2 worker processes. */
export function parseProcesses(text: string): { apis: number; workers: number } {
  const match = /^(\d+)x(\d+)$/.exec(text.trim());
  if (!match) throw new Error(`BENCH_PROCESSES must look like 2x2 (api x worker), not ${text}`);
  return { apis: Number(match[1]), workers: Number(match[2]) };
}
