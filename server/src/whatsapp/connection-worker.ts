// The workers of a connection's two lanes (see connection-queue.ts): run by the process holding
// the connection's lease, one job at a time per lane, only while the connection is open.
import { Worker, type Job } from 'bullmq';
import type { AppContext } from '../context.js';
import { createRedis } from '../lib/redis.js';
import { logger } from '../logger.js';
import type { Lane } from '../modules/governor/index.js';
import { connectionQueueName, LANES } from './connection-queue.js';
import type { ConnectionRef } from './hooks.js';
import { processMediaJob } from './media.js';
import { processNumberCheck } from './number-check.js';
import { processSendJob } from './outbound.js';
import type { WhatsAppProvider } from './port.js';

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
