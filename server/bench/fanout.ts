// (f) Socket fan-out: one company with many agents' sockets (500 by default, one user each,
// spread over the api processes), customers' messages through the simulator at a low rate, and
// for each message the time until every socket got its `appMessage` create.
// Latency start: the message's `createdAt`, written inside the storing transaction (so before
// its commit): "createdAt → socket" is an upper bound of "commit → socket". Same machine, same
// clock. The due time (when the bench offered it) is reported too: it adds the inbound pipeline.
import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { call, pct } from './http.js';
import { agentSocket } from './inbound.js';

export interface FanoutResult {
  sockets: number;
  users: number;
  apis: number;
  messages: number;
  /** (message, socket) pairs expected and received once. */
  pairs: number;
  received: number;
  doubled: number;
  /** Per (message, socket): createdAt → received. */
  p50: number;
  p99: number;
  max: number;
  /** Per message: createdAt → the last of the sockets received it. */
  lastP50: number;
  lastP99: number;
  /** Per (message, socket): due → received. */
  dueP99: number;
  loginSeconds: number;
}

interface Options {
  sockets: number;
  users: number;
  rate: number;
  seconds: number;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>) {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

export async function fanoutBench(
  apis: string[],
  databaseUrl: string,
  superUser: { email: string; password: string },
  options: Options,
): Promise<FanoutResult> {
  const base = apis[0]!;
  const root = (await call(base, 'POST', '/auth/login', undefined, superUser)).body.token;
  const stamp = `${Date.now()}${randomBytes(2).toString('hex')}`;
  const plan = await call(base, 'POST', '/plans', root, {
    name: `Fan-out ${stamp}`,
    users: options.users + 10,
    connections: 5,
    queues: 5,
    value: 1,
  });
  const email = `fanout${stamp}@bench.test`;
  await call(base, 'POST', '/companies', root, {
    name: `Fan-out ${stamp}`,
    email,
    planId: plan.body.id,
    password: 'Senha123',
    dueDate: '2099-12-31',
  });
  const admin = (
    await call(base, 'POST', '/auth/login', undefined, { email, password: 'Senha123' })
  ).body;
  const companyId: number = admin.user.companyId;
  const wa = await call(base, 'POST', '/whatsapp', admin.token, {
    name: 'Fan-out',
    provider: 'simulator',
  });
  const whatsappId: number = wa.body.id;
  const until = async (status: string) => {
    for (let i = 0; i < 1200; i++) {
      const s = await call(base, 'GET', `/simulator/connections/${whatsappId}`, admin.token);
      if (s.body?.status === status) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`fan-out connection never reached ${status}`);
  };
  await until('qrcode');
  await call(base, 'POST', `/simulator/connections/${whatsappId}/scan`, admin.token, {});
  await until('CONNECTED');

  // The agents, written in SQL (one password hash) for speed; each signs in through the API.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const hash = await argon2.hash('Senha123', { type: argon2.argon2id });
  const { rows } = await db.query<{ email: string }>(
    `INSERT INTO users ("companyId", name, email, "passwordHash", profile, "allTicket")
     SELECT $1, 'Agente ' || g, 'fan' || g || '-' || $2 || '@bench.test', $3, 'user', 'enabled'
       FROM generate_series(1, $4) g RETURNING email`,
    [companyId, stamp, hash, options.users],
  );
  await db.end();
  const t0 = performance.now();
  const tokens = await mapLimit(rows, 4, async (row) => {
    const res = await call(
      apis[rows.indexOf(row) % apis.length]!,
      'POST',
      '/auth/login',
      undefined,
      {
        email: row.email,
        password: 'Senha123',
      },
    );
    if (res.status !== 200) throw new Error(`login ${row.email}: ${JSON.stringify(res.body)}`);
    return res.body.token as string;
  });
  const loginSeconds = (performance.now() - t0) / 1000;
  const sockets: Socket[] = await mapLimit(
    Array.from({ length: options.sockets }, (_, i) => i),
    20,
    (i) => agentSocket(apis[i % apis.length]!, tokens[i % tokens.length]!),
  );

  const event = `company-${companyId}-appMessage`;
  const dueAt = new Map<string, number>();
  const created = new Map<string, number>();
  const got = new Map<string, number[][]>(); // wid → per socket: received times (ms, wall clock)
  sockets.forEach((socket, i) =>
    socket.on(event, (e: { action: string; message: { wid: string; createdAt: string } }) => {
      if (e.action !== 'create' || !dueAt.has(e.message.wid)) return;
      const now = Date.now();
      created.set(e.message.wid, Date.parse(e.message.createdAt));
      let per = got.get(e.message.wid);
      if (!per) got.set(e.message.wid, (per = sockets.map(() => [])));
      per[i]!.push(now);
    }),
  );

  const total = Math.round(options.rate * options.seconds);
  const start = Date.now();
  for (let k = 0; k < total; k++) {
    const due = start + (k * 1000) / options.rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const id = `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;
    dueAt.set(id, due);
    void call(apis[k % apis.length]!, 'POST', '/simulator/inbound/batch', admin.token, {
      messages: [{ whatsappId, from: `5511${String(930000000 + (k % 50))}`, body: `fan ${k}`, id }],
    });
  }
  const pairs = total * sockets.length;
  const receivedPairs = () =>
    [...got.values()].reduce((n, per) => n + per.filter((t) => t.length > 0).length, 0);
  const deadline = Date.now() + 30_000;
  while (receivedPairs() < pairs && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }

  const fromCommit: number[] = [];
  const fromDue: number[] = [];
  const last: number[] = [];
  let doubled = 0;
  for (const [wid, per] of got) {
    const c = created.get(wid)!;
    let latest = 0;
    for (const times of per) {
      if (!times.length) continue;
      if (times.length > 1) doubled++;
      fromCommit.push(times[0]! - c);
      fromDue.push(times[0]! - dueAt.get(wid)!);
      latest = Math.max(latest, times[0]! - c);
    }
    if (per.every((t) => t.length)) last.push(latest);
  }
  for (const socket of sockets) socket.close();
  return {
    sockets: sockets.length,
    users: tokens.length,
    apis: apis.length,
    messages: total,
    pairs,
    received: receivedPairs(),
    doubled,
    p50: pct(fromCommit, 50),
    p99: pct(fromCommit, 99),
    max: fromCommit.length ? fromCommit.reduce((a, b) => Math.max(a, b)) : NaN,
    lastP50: pct(last, 50),
    lastP99: pct(last, 99),
    dueP99: pct(fromDue, 99),
    loginSeconds,
  };
}
