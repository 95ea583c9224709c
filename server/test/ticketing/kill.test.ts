// SIGKILL during a burst of inbound messages: after a restart and the simulator's replay of what
// the platform had not read, every accepted message is stored exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseUrl } from '../db-url.js';
import { createCompanyWithAdmin } from '../fixtures.js';
import { dropDatabase, freshDatabase, type TestServer } from '../harness.js';
import { SimulatorClient } from '../simulator-client.js';
import { simConnection, sleep, until } from './fixtures.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PORT = 18_000 + Math.floor(Math.random() * 2000);
const url = `http://127.0.0.1:${PORT}`;
let database: string;
let child: ChildProcess | undefined;
let db: pg.Client;

function startChild(): ChildProcess {
  const proc = spawn('npx', ['tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(database),
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `t-${database}`,
      LOG_LEVEL: 'silent',
      SIMULATOR: 'on',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atende-kill-')),
      WEB_DIR: '/nonexistent',
    },
    stdio: 'ignore',
    // Its own process group: the kill reaches tsx's node process, not only npx.
    detached: true,
  });
  return proc;
}

const killGroup = (proc: ChildProcess) => {
  try {
    process.kill(-proc.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

const healthy = () =>
  until(async () => {
    const res = await fetch(`${url}/health`).catch(() => undefined);
    return res?.ok || undefined;
  }, 60_000);

/** The parts of TestServer the fixtures use, against the child process. */
const remote = {
  url,
  async request(method: string, p: string, options: { token?: string; body?: unknown } = {}) {
    const res = await fetch(url + p, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(options.token && { authorization: `Bearer ${options.token}` }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  },
  async login(email: string, password: string) {
    const res = await remote.request('POST', '/auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login: ${JSON.stringify(res.body)}`);
    return { token: res.body.token as string, cookie: '', user: res.body.user };
  },
} as unknown as TestServer;

beforeAll(async () => {
  database = await freshDatabase();
  db = new pg.Client({ connectionString: databaseUrl(database) });
  await db.connect();
});
afterAll(async () => {
  if (child) killGroup(child);
  await db?.end();
  if (database) await dropDatabase(database);
});

it(
  'stores every accepted message exactly once across a SIGKILL mid-burst',
  { timeout: 180_000 },
  async () => {
    child = startChild();
    await healthy();
    const company = await createCompanyWithAdmin(remote);
    const sim = new SimulatorClient(url, company.admin.token);
    const whatsappId = await simConnection(remote, company.admin, sim);
    await sim.faults(whatsappId, { replayOnReconnect: true });

    const accepted: string[] = [];
    let killed = false;
    const burst = async (worker: number) => {
      for (let i = 0; i < 60 && !killed; i++) {
        const from = `55119777${String(worker).padStart(2, '0')}${String(i % 7).padStart(3, '0')}`;
        const sent = await sim
          .inbound({ whatsappId, from, body: `w${worker} m${i}` })
          .catch(() => undefined);
        if (sent) accepted.push(sent.id);
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => burst(w));
    await until(() => accepted.length >= 120 || undefined, 60_000);
    child.kill('SIGKILL');
    killed = true;
    await Promise.all(workers);
    const storedBeforeRestart = Number(
      (await db.query('SELECT count(*) FROM messages WHERE NOT "fromMe"')).rows[0].count,
    );

    child = startChild();
    await healthy();
    const check = async () => {
      const { rows } = await db.query<{ wid: string; n: number }>(
        `SELECT wid, count(*)::int AS n FROM messages WHERE wid = ANY($1) GROUP BY wid`,
        [accepted],
      );
      return rows;
    };
    const rows = await until(async () => {
      const r = await check();
      return r.length === accepted.length ? r : undefined;
    }, 90_000);
    await sleep(1000);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    expect((await check()).length).toBe(accepted.length);
    const total = Number(
      (await db.query('SELECT count(*) FROM messages WHERE NOT "fromMe"')).rows[0].count,
    );
    expect(total).toBe(accepted.length);
    // The kill really interrupted the burst (not everything was stored before it).
    expect(storedBeforeRestart).toBeLessThanOrEqual(accepted.length);
    const dupTickets = await db.query(
      `SELECT "contactId", count(*) FROM tickets WHERE status <> 'closed' GROUP BY 1, "whatsappId" HAVING count(*) > 1`,
    );
    expect(dupTickets.rows).toEqual([]);
  },
);
