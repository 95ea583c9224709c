// Domain events on the real Postgres and Redis: written with the change, numbered in the order
// they become visible, read by each consumer through its own cursor, at least once; a worker
// killed in the middle of the stream resumes where it stopped, and with an idempotent handler each
// event takes effect exactly once. One consumer instance runs at a time across processes.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainEventPump,
  numberDomainEvents,
  pruneDomainEvents,
  recordDomainEvents,
  type DomainEventConsumer,
  type DomainEventInput,
} from '../src/modules/changes/domain-events.js';
import { withChanges } from '../src/modules/changes/publish.js';
import { databaseUrl } from './db-url.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let server: TestServer;
let companyId: number;
const children: ChildProcess[] = [];

const q = <T = any>(sql: string, params: unknown[] = []) =>
  server.app.ds.query(sql, params) as Promise<T[]>;

const contactEvents = (ids: number[]): DomainEventInput[] =>
  ids.map((contactId) => ({ type: 'contact.created', payload: { contactId } }));

/** Writes events the way a writer does: inside a transaction of its own. */
const write = (events: DomainEventInput[]) =>
  server.app.ds.transaction((tx) => recordDomainEvents(tx, companyId, events));

/** Resolves when the child has written `marker` on its stdout. */
const said = (proc: ChildProcess, marker: string) =>
  new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const line = out.split('\n').find((l) => l.startsWith(marker));
      if (line) resolve(line);
    });
    proc.once('exit', (code) => reject(new Error(`child exited with ${code} before ${marker}`)));
  });

function startChild(env: Record<string, string>) {
  const proc = spawn('npx', ['tsx', 'test/domain-events-child.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl(server.database),
      REDIS_URL: server.app.config.REDIS_URL,
      REDIS_PREFIX: server.app.prefix,
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
    // Its own process group: the kill reaches tsx's node process, not only npx.
    detached: true,
  });
  children.push(proc);
  return proc;
}

const stop = async (proc: ChildProcess, signal: NodeJS.Signals) => {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  process.kill(-proc.pid!, signal);
  await exited;
};

beforeAll(async () => {
  server = await startTestServer();
  companyId = (await createCompanyWithAdmin(server)).companyId;
  await q(`CREATE TABLE probe_event_attempts (seq bigint NOT NULL, pid int NOT NULL)`);
  await q(`CREATE TABLE probe_event_effects (seq bigint PRIMARY KEY, "contactId" int NOT NULL)`);
}, 120_000);

afterAll(async () => {
  for (const proc of children) await stop(proc, 'SIGKILL');
  await server?.close();
});

describe('domain events', () => {
  it('a writer records its events in the transaction of its change, not when it rolls back', async () => {
    const before = (await q(`SELECT count(*)::int AS n FROM domain_events`))[0].n;
    await expect(
      withChanges(server.app, companyId, async (_tx, changes) => {
        changes.events.push(...contactEvents([900_001]));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await withChanges(server.app, companyId, async (_tx, changes) => {
      changes.events.push(...contactEvents([900_002]));
    });
    const rows = await q(
      `SELECT "companyId", type, payload FROM domain_events ORDER BY id OFFSET $1`,
      [before],
    );
    expect(rows).toEqual([{ companyId, type: 'contact.created', payload: { contactId: 900_002 } }]);
  });

  it("the writers record their events under their own company (an agent's new contact)", async () => {
    const a = await createCompanyWithAdmin(server);
    const b = await createCompanyWithAdmin(server);
    const made = await server.request('POST', '/contacts', {
      token: a.admin.token,
      body: { name: 'Evento', number: '5511977776666' },
    });
    expect(made.status).toBe(201);
    const rows = await q(
      `SELECT "companyId", type, payload FROM domain_events WHERE payload->>'contactId' = $1`,
      [String(made.body.id)],
    );
    expect(rows).toEqual([
      { companyId: a.companyId, type: 'contact.created', payload: { contactId: made.body.id } },
    ]);
    expect(rows.some((r) => r.companyId === b.companyId)).toBe(false);
  });

  it('numbers events in the order they became visible: a late commit gets the later number', async () => {
    const slow = server.app.ds.createQueryRunner();
    await slow.connect();
    await slow.startTransaction();
    try {
      await recordDomainEvents(slow.manager, companyId, contactEvents([800_001]));
      await write(contactEvents([800_002]));
      await numberDomainEvents(server.app);
      await slow.commitTransaction();
    } finally {
      await slow.release();
    }
    await numberDomainEvents(server.app);
    const rows = await q<{ seq: number; contactId: number; id: number }>(
      `SELECT id::int, seq::int, (payload->>'contactId')::int AS "contactId" FROM domain_events
        WHERE (payload->>'contactId')::int IN (800001, 800002) ORDER BY seq`,
    );
    // Written first (lower id), committed last: numbered after, so a reader at 800 002's number
    // still reads it.
    expect(rows.map((r) => r.contactId)).toEqual([800_002, 800_001]);
    expect(rows[0]!.id).toBeGreaterThan(rows[1]!.id);
  });

  it('a worker killed mid-stream resumes after restart: every event takes effect once, none lost', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => 1_000 + i);
    await write(contactEvents(ids.slice(0, 10)));
    // An unparsable payload is logged and skipped; it never blocks the stream.
    await server.app.ds.query(
      `INSERT INTO domain_events ("companyId", type, payload) VALUES ($1, 'contact.created', $2)`,
      [companyId, { contactId: 'not a number' }],
    );
    await write(contactEvents(ids.slice(10)));
    await numberDomainEvents(server.app);
    const [{ last }] = await q(`SELECT last::int AS last FROM domain_event_counter`);

    // The first worker stops inside the handler of the 8th event, its effect written.
    const first = startChild({ CRASH_AT: String(ids[7]) });
    const firstPid = Number((await said(first, 'inside')).split(' ')[1]);
    const seqOf = async (contactId: number) =>
      (
        await q(
          `SELECT seq::int AS seq FROM domain_events WHERE type = 'contact.created'
            AND payload->>'contactId' = $1`,
          [String(contactId)],
        )
      )[0].seq as number;
    const [cursor] = await q(`SELECT position::int AS position FROM domain_event_cursors
      WHERE consumer = 'probe'`);
    // The cursor is durable: it stands right after the 7th event, the 8th is not passed.
    expect(cursor.position).toBe(await seqOf(ids[6]!));

    // While it holds the consumer, a second instance started beside it does not run it.
    const second = startChild({});
    const settled = said(second, 'settled');
    settled.catch(() => undefined); // awaited below; a failure before then is reported there
    const [state, secondPid] = (await said(second, 'started')).split(' ').slice(1);
    expect(state).toBe('waiting');
    const [{ others }] = await q(
      `SELECT count(*)::int AS others FROM probe_event_attempts WHERE pid <> $1`,
      [firstPid],
    );
    expect(others).toBe(0);
    await stop(first, 'SIGKILL');
    // The killed worker's lock went with its connection: the second one takes over and finishes.
    await settled;

    const effects = await q(`SELECT "contactId" FROM probe_event_effects
      WHERE "contactId" BETWEEN 1000 AND 1019 ORDER BY seq`);
    expect(effects.map((r) => r.contactId)).toEqual(ids);
    const attempts = await q<{ contactId: number; n: number }>(
      `SELECT (e.payload->>'contactId')::int AS "contactId", count(a.seq)::int AS n
         FROM domain_events e LEFT JOIN probe_event_attempts a ON a.seq = e.seq
        WHERE e.seq IS NOT NULL AND (e.payload->>'contactId') ~ '^10[0-9][0-9]$'
        GROUP BY 1 ORDER BY 1`,
    );
    // At least once: the event being handled at the kill ran again; every other one ran once.
    expect(attempts).toEqual(ids.map((contactId, i) => ({ contactId, n: i === 7 ? 2 : 1 })));
    // The first worker did the first eight; the second redid the eighth and did the rest.
    const byPid = await q<{ pid: number; n: number }>(
      `SELECT pid, count(*)::int AS n FROM probe_event_attempts a JOIN domain_events e USING (seq)
        WHERE (e.payload->>'contactId') ~ '^10[0-9][0-9]$' GROUP BY pid ORDER BY pid = $1 DESC`,
      [firstPid],
    );
    expect(byPid).toEqual([
      { pid: firstPid, n: 8 },
      { pid: Number(secondPid), n: 13 },
    ]);
    const [after] = await q(`SELECT position::int AS position FROM domain_event_cursors
      WHERE consumer = 'probe'`);
    expect(after.position).toBeGreaterThanOrEqual(last);
    await stop(second, 'SIGTERM');
  }, 120_000);

  it('one instance per consumer name at a time: two pumps never handle the same event', async () => {
    const handled: number[] = [];
    const consumer: DomainEventConsumer = {
      name: 'probe-single',
      on: {
        'contact.created': async (_app, event) => {
          handled.push(event.seq);
        },
      },
    };
    const a = new DomainEventPump(server.app, [consumer]);
    const b = new DomainEventPump(server.app, [consumer]);
    try {
      await a.start();
      await b.start();
      expect([a.holdsAll(), b.holdsAll()].filter(Boolean)).toHaveLength(1);
      await write(contactEvents([2_001, 2_002, 2_003]));
      a.wake();
      b.wake();
      await (a.holdsAll() ? a : b).settled();
      expect(new Set(handled).size).toBe(handled.length);
      const [{ n }] = await q(`SELECT count(*)::int AS n FROM domain_events WHERE seq IS NOT NULL
        AND type = 'contact.created' AND payload->>'contactId' ~ '^[0-9]+$'`);
      expect(handled).toHaveLength(n);
      // The holder stops: the other takes the consumer over on its next pass.
      const holder = a.holdsAll() ? a : b;
      const other = holder === a ? b : a;
      await holder.close();
      await write(contactEvents([2_004]));
      await other.settled();
      expect(other.holdsAll()).toBe(true);
      expect(new Set(handled).size).toBe(n + 1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a handler that keeps failing is retried, then its event is skipped and logged', async () => {
    let calls = 0;
    const consumer: DomainEventConsumer = {
      name: 'probe-failing',
      startAt: 'head',
      on: {
        'contact.created': async () => {
          calls++;
          throw new Error('always fails');
        },
      },
    };
    const pump = new DomainEventPump(server.app, [consumer]);
    try {
      await pump.start();
      await write(contactEvents([3_001]));
      await pump.settled(60_000);
      expect(calls).toBe(5);
    } finally {
      await pump.close();
    }
  }, 90_000);

  it('a run handler takes consecutive events at once; a run that fails is handled one by one', async () => {
    const runs: number[][] = [];
    const singles: number[] = [];
    let badCalls = 0;
    const consumer: DomainEventConsumer = {
      name: 'probe-runs',
      startAt: 'head',
      on: {
        'contact.created': async (_app, event) => {
          if (event.payload.contactId === 4_002) {
            badCalls++;
            throw new Error('bad event');
          }
          singles.push(event.payload.contactId);
        },
      },
      runs: {
        'contact.created': async (_app, events) => {
          const ids = events.map((e) => e.payload.contactId);
          runs.push(ids);
          if (ids.includes(4_002)) throw new Error('bad run');
        },
      },
    };
    const pump = new DomainEventPump(server.app, [consumer]);
    try {
      await pump.start();
      await write(contactEvents([4_101, 4_102, 4_103]));
      await pump.settled();
      expect(runs).toEqual([[4_101, 4_102, 4_103]]);
      expect(singles).toEqual([]);
      await write(contactEvents([4_001, 4_002, 4_003]));
      await pump.settled(60_000);
      // The failed run was handed over once; then each event alone, the bad one retried, skipped.
      expect(runs.slice(1)).toEqual([[4_001, 4_002, 4_003]]);
      expect(singles).toEqual([4_001, 4_003]);
      expect(badCalls).toBe(5);
    } finally {
      await pump.close();
    }
  }, 90_000);

  it('prunes only what every live consumer passed, and keeps the retention', async () => {
    await server.app.ds.query(
      `INSERT INTO domain_event_cursors (consumer, position) VALUES ('laggard', 0),
              ('gone', 0)`,
    );
    await server.app.ds.query(
      `UPDATE domain_event_cursors SET "updatedAt" = now() - interval '40 days'
        WHERE consumer = 'gone'`,
    );
    const count = async () => (await q(`SELECT count(*)::int AS n FROM domain_events`))[0].n;
    const all = await count();
    // A live consumer at 0: nothing goes.
    expect(await pruneDomainEvents(server.app, 0)).toBe(0);
    // Within the retention: nothing goes either.
    await server.app.ds.query(`DELETE FROM domain_event_cursors WHERE consumer = 'laggard'`);
    expect(await pruneDomainEvents(server.app)).toBe(0);
    // A stale cursor ('gone') holds nothing back; unnumbered rows are never pruned.
    await server.app.ds.query(
      `INSERT INTO domain_events ("companyId", type, payload) VALUES ($1, 'contact.created', '{"contactId": 1}')`,
      [companyId],
    );
    const [{ floor }] = await q(
      `SELECT min(position)::int AS floor FROM domain_event_cursors
        WHERE "updatedAt" > now() - interval '30 days'`,
    );
    const passed = (
      await q(`SELECT count(*)::int AS n FROM domain_events WHERE seq <= $1`, [floor])
    )[0].n;
    expect(await pruneDomainEvents(server.app, 0)).toBe(passed);
    expect(await count()).toBe(all + 1 - passed);
  });
});
