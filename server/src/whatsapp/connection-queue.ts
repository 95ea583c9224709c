// Two BullMQ queues per connection, one per lane: 'agent' (replies in a conversation and media
// downloads) and 'bulk' (campaigns, schedules: paced by the send governor). Only the process
// holding the connection's lease runs their workers, one job at a time per lane so messages
// leave in order, and only while the connection is open: jobs wait in Redis while it reconnects
// or changes hands. A bulk job waiting for its turn never holds up the agent lane. The queues are
// here; their workers are in connection-worker.ts (which imports the processors, so the files
// that add jobs, media.ts and outbound.ts, need not import it back).
import { Queue } from 'bullmq';
import type { AppContext } from '../context.js';
import type { Lane } from '../modules/governor/index.js';

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
