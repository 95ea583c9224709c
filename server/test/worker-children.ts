// Worker processes for the crash tests: `node --import tsx test/worker-process.ts` on the test
// server's database and Redis prefix, each the leader of its own process group, so a SIGKILL to
// the group takes its children (tsx's esbuild service) too and the test can check none is left.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseUrl } from './db-url.js';
import type { TestServer } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface ChildOptions {
  /** The script under test/ (default: the worker). */
  file?: string;
  /** SESSION_LEASE_MS of the child. */
  leaseMs: number;
  /** DB_POOL_SIZE of the child. */
  poolSize?: number;
  /** Its own process group (SIGKILL to the group); off: a plain child (SIGTERM tests). */
  detached?: boolean;
}

/**
 * Spawns a test child (`worker-process.ts`, `api-process.ts`) and resolves with its `ready …`
 * line once printed; `started` gets every child.
 */
export function spawnTestChild(
  server: TestServer,
  started: Map<number, ChildProcess>,
  { file = 'worker-process.ts', leaseMs, poolSize, detached = true }: ChildOptions,
): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, file)], {
    cwd: path.join(here, '..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl(server.database),
      REDIS_URL: server.app.config.REDIS_URL,
      REDIS_PREFIX: server.app.prefix,
      SESSION_LEASE_MS: String(leaseMs),
      SIMULATOR: 'on',
      LOG_LEVEL: 'silent',
      PORT: '0',
      ...(poolSize ? { DB_POOL_SIZE: String(poolSize) } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached,
  });
  started.set(child.pid!, child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /ready \d+[^\n]*/.exec(out)?.[0];
      if (line) {
        child.removeAllListeners('exit');
        child.stdout!.removeAllListeners('data');
        resolve({ child, line });
      }
    });
  });
}

/** A worker child, resolved once ready. */
export const spawnWorkerProcess = async (
  server: TestServer,
  started: Map<number, ChildProcess>,
  options: Omit<ChildOptions, 'file'>,
): Promise<ChildProcess> => (await spawnTestChild(server, started, options)).child;

/** SIGKILL to the worker's whole group; resolves once node has reaped the worker. */
export async function killGroup(child: ChildProcess): Promise<void> {
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
  await exited;
}

/** Whether any process (zombies included) is left in the group. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}
