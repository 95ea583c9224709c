// A worker process for domain-events.test.ts: it runs the consumer `probe` over the test
// server's database. Its handler records each attempt and writes its effect idempotently (one row
// per event number). With CRASH_AT set, it stops inside the handler of that contact's event, after
// the effect is written and before the cursor moves, says "inside" and waits to be killed.
// Without, it says "started holding|waiting <pid>" (whether it got the consumer's lock), then
// "settled"
// once the cursor has passed every event, and waits for SIGTERM.
// Run with `npx tsx` and DATABASE_URL, REDIS_URL, REDIS_PREFIX set.
import type { AppContext } from '../src/context.js';
import { createDataSource } from '../src/db/data-source.js';
import { createRedis } from '../src/lib/redis.js';
import { DomainEventPump, type DomainEventConsumer } from '../src/modules/changes/domain-events.js';

const ds = createDataSource(process.env.DATABASE_URL!, 2);
await ds.initialize();
const redis = createRedis(process.env.REDIS_URL!);
const app = { ds, redis, prefix: process.env.REDIS_PREFIX! } as AppContext;
const crashAt = process.env.CRASH_AT ? Number(process.env.CRASH_AT) : undefined;

const probe: DomainEventConsumer = {
  name: 'probe',
  on: {
    'contact.created': async (_app, event) => {
      await ds.query('INSERT INTO probe_event_attempts (seq, pid) VALUES ($1, $2)', [
        event.seq,
        process.pid,
      ]);
      await ds.query(
        'INSERT INTO probe_event_effects (seq, "contactId") VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [event.seq, event.payload.contactId],
      );
      if (event.payload.contactId === crashAt) {
        process.stdout.write(`inside ${process.pid}\n`);
        await new Promise<void>(() => undefined);
      }
    },
  },
};

const pump = new DomainEventPump(app, [probe], { redisUrl: process.env.REDIS_URL! });
if (crashAt !== undefined) void pump.start();
else {
  await pump.start();
  process.stdout.write(`started ${pump.holdsAll() ? 'holding' : 'waiting'} ${process.pid}\n`);
  await pump.settled(60_000);
  process.stdout.write('settled\n');
}
process.on('SIGTERM', () => {
  void pump
    .close()
    .then(() => ds.destroy())
    .then(() => {
      redis.disconnect();
      process.exit(0);
    });
});
