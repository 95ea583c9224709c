// A durable job kind for tests: its effect is a row of probe_effects written in the firing's
// transaction. `hooks` lets a test stop a firing half-way (see durable.test.ts).
import { z } from 'zod';
import { defineDurableJob, type DurableJob } from '../src/jobs/durable.js';

export const probeHooks: {
  now: () => number;
  /** Called after the effect is written, before the firing commits. */
  inside: (note: string) => Promise<void>;
} = { now: () => Date.now(), inside: async () => undefined };

export const probeJob = defineDurableJob({
  kind: 'test-probe',
  payload: z.object({ note: z.string() }),
  now: () => new Date(probeHooks.now()),
  async run(_app, firing) {
    await firing.tx.query('INSERT INTO probe_effects (firing, note) VALUES ($1, $2)', [
      firing.firingKey,
      firing.payload.note,
    ]);
    await probeHooks.inside(firing.payload.note);
  },
}) as DurableJob<unknown>;
