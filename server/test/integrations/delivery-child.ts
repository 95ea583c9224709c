// A worker that takes one due webhook delivery and is killed while its request is in flight
// (webhook-deliveries.test.ts). Run with `npx tsx`, with DATABASE_URL, REDIS_URL, REDIS_PREFIX,
// DELIVERY_JOB_ID and CLOCK_AHEAD_MS (how far its clock runs ahead, so the retry is due).
import type { AppContext } from '../../src/context.js';
import { createDataSource } from '../../src/db/data-source.js';
import { fireDurable, type DurableJob } from '../../src/jobs/durable.js';
import { createRedis } from '../../src/lib/redis.js';
import { setDeliveryClock, webhookDeliveryJob } from '../../src/modules/integrations/deliveries.js';
import { testConfig } from '../harness.js';

const ds = createDataSource(process.env.DATABASE_URL!, 2);
await ds.initialize();
const redis = createRedis(process.env.REDIS_URL!);
const config = testConfig(process.env.DATABASE_NAME!);
const app = { ds, redis, prefix: process.env.REDIS_PREFIX!, config } as AppContext;
const ahead = Number(process.env.CLOCK_AHEAD_MS ?? 0);
setDeliveryClock(() => new Date(Date.now() + ahead));
process.stdout.write('ready\n');
await fireDurable(
  app,
  webhookDeliveryJob as DurableJob<unknown>,
  Number(process.env.DELIVERY_JOB_ID),
);
process.stdout.write('done\n');
