// A process that takes a due probe job and dies half-way through it: it writes the effect, says
// "inside" and waits to be killed (durable.test.ts). Run with `npx tsx` and DATABASE_URL set.
import type { AppContext } from '../src/context.js';
import { createDataSource } from '../src/db/data-source.js';
import { fireDurable } from '../src/jobs/durable.js';
import { createRedis } from '../src/lib/redis.js';
import { probeHooks, probeJob } from './durable-probe.js';

const ds = createDataSource(process.env.DATABASE_URL!, 2);
await ds.initialize();
const redis = createRedis(process.env.REDIS_URL!);
const app = { ds, redis, prefix: process.env.REDIS_PREFIX! } as AppContext;
probeHooks.inside = () => {
  process.stdout.write('inside\n');
  return new Promise<void>(() => undefined);
};
await fireDurable(app, probeJob, Number(process.env.PROBE_ID));
