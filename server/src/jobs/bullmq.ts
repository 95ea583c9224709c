import { Queue, Worker, type Processor } from 'bullmq';
import type { AppContext } from '../context.js';
import { createRedis } from '../lib/redis.js';
import { logger } from '../logger.js';

/** A BullMQ queue under this deployment's prefix. Postgres stays the record; jobs only trigger. */
export function createQueue(app: AppContext, name: string): Queue {
  return new Queue(name, { connection: app.redis, prefix: `${app.prefix}:bull` });
}

export function startWorker(
  app: AppContext,
  name: string,
  processor: Processor,
  concurrency = 10,
): Worker {
  // A worker blocks on its own connection.
  const worker = new Worker(name, processor, {
    connection: createRedis(app.config.REDIS_URL),
    prefix: `${app.prefix}:bull`,
    concurrency,
  });
  worker.on('failed', (job, err) =>
    logger.warn({ queue: name, jobId: job?.id, err }, 'job failed'),
  );
  return worker;
}

/**
 * What the worker role runs: a module lists its starters in its manifest (`workers`); each
 * returns what to close.
 */
export type WorkerStarter = (app: AppContext) => Promise<{ close: () => Promise<void> }>;
