// Two BullMQ queues per connection, one per lane: 'agent' (replies in a conversation and media
// downloads) and 'bulk' (campaigns, schedules: paced by the send governor). Only the process
// holding the connection's lease runs their workers, one job at a time per lane so messages
// leave in order, and only while the connection is open: jobs wait in Redis while it reconnects
// or changes hands. A bulk job waiting for its turn never holds up the agent lane.
import { Queue, Worker, type Job } from 'bullmq';
import type { AppContext } from '../context.js';
import { createRedis } from '../lib/redis.js';
import { logger } from '../logger.js';
import type { Lane } from '../modules/governor/index.js';
import type { ConnectionRef } from './hooks.js';
import { processMediaJob } from './media.js';
import { processNumberCheck } from './number-check.js';
import { processSendJob } from './outbound.js';
import type { WhatsAppProvider } from './port.js';

export const LANES: readonly Lane[] = ['agent', 'bulk'];

export const connectionQueueName = (whatsappId: number, lane: Lane = 'agent') =>
  lane === 'agent' ? `wa-conn-${whatsappId}` : `wa-bulk-${whatsappId}`;

const queues = new WeakMap<AppContext, Map<string, Queue>>();

/** The queue of one connection's lane, created once per process and closed with the app. */
export function connectionQueue(app: AppContext, whatsappId: number, lane: Lane = 'agent'): Queue {
  let byName = queues.get(app);
  if (!byName) queues.set(app, (byName = new Map()));
  const name = connectionQueueName(whatsappId, lane);
  let queue = byName.get(name);
  if (!queue) {
    queue = new Queue(name, { connection: app.redis, prefix: `${app.prefix}:bull` });
    byName.set(name, queue);
  }
  return queue;
}

export async function closeConnectionQueues(app: AppContext): Promise<void> {
  const byId = queues.get(app);
  queues.delete(app);
  await Promise.all([...(byId?.values() ?? [])].map((q) => q.close()));
}

/** Drops every waiting job of a deleted connection, in both lanes. */
export async function discardConnectionJobs(app: AppContext, whatsappId: number): Promise<void> {
  for (const lane of LANES) {
    const queue = connectionQueue(app, whatsappId, lane);
    await queue.obliterate({ force: true });
    await queue.close();
    queues.get(app)?.delete(connectionQueueName(whatsappId, lane));
  }
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
  // Aborted on close: a bulk job waiting for its turn hands itself back to the delayed set.
  const closing = new AbortController();
  const processors: Record<Lane, (job: Job, token?: string) => Promise<unknown>> = {
    agent: (job, token) =>
      job.name === 'media'
        ? processMediaJob(app, job, provider())
        : job.name === 'check'
          ? processNumberCheck(app, job, provider())
          : job.name === 'contacts'
            ? provider().listContacts()
            : processSendJob(app, job, provider(), {
                lane: 'agent',
                signal: closing.signal,
                token,
              }),
    bulk: (job, token) =>
      processSendJob(app, job, provider(), { lane: 'bulk', signal: closing.signal, token }),
  };
  const running: { worker: Worker; redis: ReturnType<typeof createRedis> }[] = [];
  let connected = false;
  return {
    setConnected(now) {
      if (now === connected) return;
      connected = now;
      if (now && !running.length) {
        for (const lane of LANES) {
          const redis = createRedis(app.config.REDIS_URL);
          const worker = new Worker(
            connectionQueueName(connection.whatsappId, lane),
            processors[lane],
            { connection: redis, prefix: `${app.prefix}:bull`, concurrency: 1 },
          );
          worker.on('failed', (job, err) =>
            logger.warn(
              { whatsappId: connection.whatsappId, lane, jobId: job?.id, err },
              'job failed',
            ),
          );
          worker.on('error', (err) => logger.warn({ err, lane }, 'connection worker error'));
          running.push({ worker, redis });
        }
      } else if (now) for (const r of running) r.worker.resume();
      else for (const r of running) void r.worker.pause(true);
    },
    async close() {
      closing.abort(new Error('connection worker closing'));
      const all = running.splice(0);
      await Promise.all(all.map((r) => r.worker.close()));
      for (const r of all) r.redis.disconnect();
    },
  };
}
