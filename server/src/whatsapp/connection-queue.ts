// One BullMQ queue per connection (sends and media downloads). Only the process holding the
// connection's lease runs its worker, one job at a time so messages leave in order, and only
// while the connection is open: jobs wait in Redis while it reconnects or changes hands.
import { Queue, Worker, type Job } from 'bullmq';
import type { AppContext } from '../context.js';
import { createRedis } from '../lib/redis.js';
import { logger } from '../logger.js';
import type { ConnectionRef } from './hooks.js';
import { processMediaJob } from './media.js';
import { processSendJob } from './outbound.js';
import type { WhatsAppProvider } from './port.js';

export const connectionQueueName = (whatsappId: number) => `wa-conn-${whatsappId}`;

const queues = new WeakMap<AppContext, Map<number, Queue>>();

/** The queue of one connection, created once per process and closed with the app. */
export function connectionQueue(app: AppContext, whatsappId: number): Queue {
  let byId = queues.get(app);
  if (!byId) queues.set(app, (byId = new Map()));
  let queue = byId.get(whatsappId);
  if (!queue) {
    queue = new Queue(connectionQueueName(whatsappId), {
      connection: app.redis,
      prefix: `${app.prefix}:bull`,
    });
    byId.set(whatsappId, queue);
  }
  return queue;
}

export async function closeConnectionQueues(app: AppContext): Promise<void> {
  const byId = queues.get(app);
  queues.delete(app);
  await Promise.all([...(byId?.values() ?? [])].map((q) => q.close()));
}

/** Drops every waiting job of a deleted connection. */
export async function discardConnectionJobs(app: AppContext, whatsappId: number): Promise<void> {
  const queue = connectionQueue(app, whatsappId);
  await queue.obliterate({ force: true });
  await queue.close();
  queues.get(app)?.delete(whatsappId);
}

export interface ConnectionWorker {
  setConnected(connected: boolean): void;
  close(): Promise<void>;
}

export function startConnectionWorker(
  app: AppContext,
  connection: ConnectionRef,
  provider: () => WhatsAppProvider,
): ConnectionWorker {
  const processor = (job: Job) =>
    job.name === 'media'
      ? processMediaJob(app, job, provider())
      : processSendJob(app, job, provider());
  let worker: Worker | undefined;
  let redis: ReturnType<typeof createRedis> | undefined;
  let connected = false;
  return {
    setConnected(now) {
      if (now === connected) return;
      connected = now;
      if (now && !worker) {
        redis = createRedis(app.config.REDIS_URL);
        worker = new Worker(connectionQueueName(connection.whatsappId), processor, {
          connection: redis,
          prefix: `${app.prefix}:bull`,
          concurrency: 1,
        });
        worker.on('failed', (job, err) =>
          logger.warn({ whatsappId: connection.whatsappId, jobId: job?.id, err }, 'job failed'),
        );
        worker.on('error', (err) => logger.warn({ err }, 'connection worker error'));
      } else if (now) worker?.resume();
      else void worker?.pause(true);
    },
    async close() {
      const w = worker;
      worker = undefined;
      await w?.close();
      redis?.disconnect();
      redis = undefined;
    },
  };
}
