// Durable jobs on the real Postgres and Redis: the row is the record, a firing happens once
// whoever triggers it, a failed attempt leaves no effect, a bad payload is dropped with a log.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueue } from '../src/jobs/bullmq.js';
import {
  fireDurable,
  scheduleDurable,
  startDurableJobs,
  triggerDurable,
} from '../src/jobs/durable.js';
import { logger } from '../src/logger.js';
import { databaseUrl } from './db-url.js';
import { probeHooks, probeJob as probe } from './durable-probe.js';
import { startTestServer, type TestServer } from './harness.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let server: TestServer;
let child: ChildProcess | undefined;
let clock = Date.now();
const entered: (() => void)[] = [];
let gate: Promise<void> | undefined;
let failOnce = new Set<string>();

probeHooks.now = () => clock;
probeHooks.inside = async (note) => {
  entered.shift()?.();
  if (gate) await gate;
  if (failOnce.delete(note)) throw new Error('crashed mid-way');
};

const effects = async (note: string) =>
  (await server.app.ds.query('SELECT firing FROM probe_effects WHERE note = $1', [note])).map(
    (r: { firing: string }) => r.firing,
  );
const rowOf = async (key: string) =>
  (
    await server.app.ds.query(
      `SELECT id::int AS id, "firedAt", "failedAt", attempts, error FROM durable_jobs
        WHERE kind = 'test-probe' AND key = $1`,
      [key],
    )
  )[0];
const until = async <T>(probe: () => Promise<T | undefined | false>, ms = 10_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};
const drained = async () => {
  const queue = createQueue(server.app, 'durable-test-probe');
  try {
    await until(async () => {
      const c = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(c).every((n) => n === 0);
    });
  } finally {
    await queue.close();
  }
};

beforeAll(async () => {
  server = await startTestServer();
  await server.app.ds.query('CREATE TABLE probe_effects (firing text NOT NULL, note text)');
});
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    process.kill(-child.pid!, 'SIGKILL');
  }
  await server?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  gate = undefined;
  failOnce = new Set();
});

describe('durable jobs', () => {
  it('a job due while no worker runs fires once after the worker starts', async () => {
    clock = Date.now();
    // Scheduled while nothing processes the kind: the trigger waits in Redis, the row in Postgres.
    await scheduleDurable(server.app, probe, {
      key: 'offline',
      companyId: null,
      dueAt: new Date(clock - 1_000),
      payload: { note: 'offline' },
    });
    expect(await effects('offline')).toEqual([]);
    const runner = startDurableJobs(server.app, [probe], { sweepEveryMs: 60_000 });
    try {
      // The boot sweep and the waiting trigger both reach it: one firing.
      await until(async () => (await effects('offline')).length > 0);
      await runner.sweep();
      await drained();
      expect(await effects('offline')).toHaveLength(1);
      expect((await rowOf('offline')).firedAt).not.toBeNull();
    } finally {
      await runner.close();
    }
  });

  it('a trigger delivered twice fires once, even while the first is still running', async () => {
    clock = Date.now();
    const { id } = await scheduleDurable(server.app, probe, {
      key: 'twice',
      companyId: null,
      dueAt: new Date(clock),
      payload: { note: 'twice' },
    });
    let release!: () => void;
    gate = new Promise((r) => (release = r));
    const inside = new Promise<void>((r) => entered.push(r));
    const first = fireDurable(server.app, probe, id);
    await inside;
    // The first firing holds the row: the second delivery skips it.
    expect(await fireDurable(server.app, probe, id)).toBe('none');
    release();
    expect(await first).toBe('done');
    // A late duplicate of the BullMQ trigger finds the firing done.
    const runner = startDurableJobs(server.app, [probe], { sweepEveryMs: 60_000 });
    try {
      await triggerDurable(server.app, probe, id, new Date(clock), '-dup');
      await drained();
    } finally {
      await runner.close();
    }
    expect(await effects('twice')).toEqual([`${id}:${clock}`]);
  });

  it('a firing that crashes mid-way leaves no effect and is done once on its retry', async () => {
    clock = Date.now();
    const { id } = await scheduleDurable(server.app, probe, {
      key: 'crash',
      companyId: null,
      dueAt: new Date(clock),
      payload: { note: 'crash' },
    });
    failOnce.add('crash');
    expect(await fireDurable(server.app, probe, id)).toBe('failed');
    expect(await effects('crash')).toEqual([]);
    expect(await rowOf('crash')).toMatchObject({ attempts: 1, error: 'crashed mid-way' });
    // Not before its backoff; then once.
    expect(await fireDurable(server.app, probe, id)).toBe('none');
    clock += 2_000;
    expect(await fireDurable(server.app, probe, id)).toBe('done');
    expect(await fireDurable(server.app, probe, id)).toBe('none');
    expect(await effects('crash')).toHaveLength(1);
  });

  it('a worker killed half-way through a firing leaves no effect; it is done once after', async () => {
    clock = Date.now();
    const { id } = await scheduleDurable(server.app, probe, {
      key: 'killed',
      companyId: null,
      dueAt: new Date(clock),
      payload: { note: 'killed' },
    });
    const proc = spawn('npx', ['tsx', 'test/durable-crash-child.ts'], {
      cwd: serverDir,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl(server.database),
        REDIS_URL: server.app.config.REDIS_URL,
        REDIS_PREFIX: server.app.prefix,
        PROBE_ID: String(id),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      // Its own process group: the kill reaches tsx's node process, not only npx.
      detached: true,
    });
    child = proc;
    await new Promise<void>((resolve, reject) => {
      proc.stdout!.on('data', (d: Buffer) => String(d).includes('inside') && resolve());
      proc.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
    });
    // The child holds the row with its effect written but not committed.
    expect(await fireDurable(server.app, probe, id)).toBe('none');
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    process.kill(-proc.pid!, 'SIGKILL');
    await exited;
    await until(async () => (await fireDurable(server.app, probe, id)) === 'done', 20_000);
    expect(await effects('killed')).toEqual([`${id}:${clock}`]);
  });

  it('moving a row to a new due time is a new firing; the same time stays done', async () => {
    clock = Date.now();
    const spec = { key: 'moved', companyId: null, payload: { note: 'moved' } };
    const { id } = await scheduleDurable(server.app, probe, { ...spec, dueAt: new Date(clock) });
    expect(await fireDurable(server.app, probe, id)).toBe('done');
    await scheduleDurable(server.app, probe, { ...spec, dueAt: new Date(clock) });
    expect(await fireDurable(server.app, probe, id)).toBe('none');
    await scheduleDurable(server.app, probe, { ...spec, dueAt: new Date(clock + 5_000) });
    expect(await fireDurable(server.app, probe, id)).toBe('none');
    clock += 5_000;
    expect(await fireDurable(server.app, probe, id)).toBe('done');
    expect(await effects('moved')).toHaveLength(2);
  });

  it('a row whose payload does not parse is dropped with a log; a bad trigger too', async () => {
    clock = Date.now();
    const warn = vi.spyOn(logger, 'warn');
    const [bad] = await server.app.ds.query(
      `INSERT INTO durable_jobs (kind, key, payload, "dueAt")
       VALUES ('test-probe', 'bad', '{"note": 42}', $1) RETURNING id::int AS id`,
      [new Date(clock)],
    );
    const runner = startDurableJobs(server.app, [probe], { sweepEveryMs: 60_000 });
    try {
      await runner.sweep();
      const row = await rowOf('bad');
      expect(row.failedAt).not.toBeNull();
      expect(row.error).toMatch(/^invalid payload/);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ kind: 'test-probe', id: bad.id }),
        'durable job dropped: invalid payload',
      );

      // A trigger whose data does not parse: logged and dropped, and the worker goes on.
      const queue = createQueue(server.app, 'durable-test-probe');
      await queue.add('fire', { id: 'not a number' }, { removeOnComplete: true });
      await queue.close();
      await drained();
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ kind: 'test-probe' }),
        'durable trigger dropped: invalid data',
      );
      await scheduleDurable(server.app, probe, {
        key: 'after-bad',
        companyId: null,
        dueAt: new Date(clock),
        payload: { note: 'after-bad' },
      });
      await until(async () => (await effects('after-bad')).length === 1);
    } finally {
      await runner.close();
    }
    expect(await effects('bad')).toEqual([]);
  });
});
