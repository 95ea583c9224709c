import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { logger } from '../logger.js';

export function createRedis(url: string): Redis {
  // BullMQ needs maxRetriesPerRequest null on the connections it blocks on.
  return new Redis(url, { maxRetriesPerRequest: null, lazyConnect: false });
}

export async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      return statSync(path.join(dir, cmd)).isFile();
    } catch {
      return false;
    }
  });
}

/** How long a private redis-server may take to answer. */
const REDIS_START_MS = 20_000;

/**
 * Makes sure Redis answers at `url`. When it does not and `redis-server` is on the PATH, a
 * private one is started under `$DATA_DIR/redis` (append-only, so queued jobs survive restarts).
 */
export async function ensureRedis(
  url: string,
  dataDir: string,
): Promise<{ stop: () => void } | null> {
  if (await redisAnswers(url)) return null;
  if (!onPath('redis-server')) {
    throw new Error(
      `Redis does not answer at ${url}: install redis-server or set REDIS_URL to a running Redis.`,
    );
  }
  const { port, hostname } = new URL(url);
  const dir = path.resolve(dataDir, 'redis');
  await mkdir(dir, { recursive: true });
  const child = spawn(
    'redis-server',
    [
      '--port',
      port || '6379',
      '--bind',
      hostname,
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--save',
      '',
    ],
    { stdio: 'ignore' },
  );
  let exited = false;
  child.once('exit', () => (exited = true));
  // A busy machine can take seconds to start it; a server that exits (port taken) ends the wait.
  const deadline = Date.now() + REDIS_START_MS;
  while (!exited && Date.now() < deadline) {
    if (await redisAnswers(url)) {
      logger.info({ dir, url }, 'private redis-server started');
      return { stop: () => child.kill('SIGTERM') };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start at ${url}; set REDIS_URL to a running Redis.`);
}
