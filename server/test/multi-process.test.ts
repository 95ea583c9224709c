// Two api and two worker processes on one database and Redis prefix (Redis carries the numbered
// changes to each api process's relay). Four simulator connections spread two per worker by lease; agents'
// sockets sit on both api processes. A burst of customer messages goes in through both api
// processes; while the workers are still storing it, one worker gets SIGKILL, and more messages
// arrive during the failover. Every message is stored once and every socket gets its
// `appMessage` create exactly once. Children run in their own process groups and are killed
// (whole group) in afterAll, also when the test fails.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SessionLease } from '../src/whatsapp/session-lease.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { listen, type Listening } from './socket-client.js';
import { addAgent, until } from './ticketing/fixtures.js';
import { groupAlive, killGroup, spawnTestChild } from './worker-children.js';

const LEASE_MS = 3_000;
const CONNECTIONS = 4;
const FIRST = 400;
const DURING_FAILOVER = 100;
let server: TestServer;
const groups = new Map<number, ChildProcess>();
const sockets: Listening[] = [];

/** A child (`node --import tsx test/<file>`), leader of its own group; resolves with its ready line. */
const spawnChild = (file: string) =>
  spawnTestChild(server, groups, { file, leaseMs: LEASE_MS, poolSize: 4 });

const count = async (sql: string, params: unknown[] = []) =>
  Number(((await server.app.ds.query(sql, params)) as { n: string }[])[0]!.n);

beforeAll(async () => {
  // The test's own server is an api process too; it creates the data and reads the database.
  server = await startTestServer({ ROLE: 'api', SIMULATOR: 'on' });
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  for (const child of groups.values()) await killGroup(child);
  await server?.close();
});

it(
  'each message is stored once and reaches each socket once across a SIGKILL of a worker',
  { timeout: 55_000 },
  async () => {
    const t0 = Date.now();
    const mark = (what: string) => process.stdout.write(`${what} +${Date.now() - t0} ms\n`);
    const [w1, w2, a1, a2] = await Promise.all([
      spawnChild('worker-process.ts'),
      spawnChild('worker-process.ts'),
      spawnChild('api-process.ts'),
      spawnChild('api-process.ts'),
    ]);
    const apiUrls = [a1, a2].map(({ line }) => line.split(' ')[2]!);
    const workerPids = [w1.child.pid!, w2.child.pid!];

    mark('children ready');
    const { admin, companyId } = await createCompanyWithAdmin(server);
    const agent = await addAgent(server, admin, { allTicket: 'enabled' });
    const sims = apiUrls.map((url) => new SimulatorClient(url, admin.token));
    const ids: number[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const res = await server.request('POST', '/whatsapp', {
        token: admin.token,
        body: { name: `Multi ${i}`, provider: 'simulator' },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    await Promise.all(ids.map((id, i) => sims[i % 2]!.connect(id, `55119400000${i}`)));

    // Placement by lease: the fair share is ceil(4 / 2) = 2 connections per worker.
    const holders = async () =>
      Promise.all(
        ids.map(async (id) => {
          const value = await SessionLease.holder(server.app.redis, server.app.prefix, id);
          return value ? Number(value.split(':')[1]) : undefined;
        }),
      );
    const spread = await until(async () => {
      const pids = await holders();
      const per = workerPids.map((pid) => pids.filter((p) => p === pid).length);
      return per.every((n) => n === CONNECTIONS / 2) ? pids : undefined;
    }, 20_000);
    await Promise.all(ids.map((id) => sims[0]!.waitForStatus(id, 'CONNECTED', 10_000)));
    mark('spread');

    // Two sockets on each api process: the admin (admins room) and an agent (no-queue room).
    for (const url of apiUrls) {
      sockets.push(await listen(url, admin.token));
      const agentSocket = await listen(url, agent.token);
      await new Promise((r) => agentSocket.socket.emit('joinNotification', {}, r));
      sockets.push(agentSocket);
    }

    const burst = async (n: number, tag: string) => {
      const sent: string[] = [];
      for (let k = 0; k < n; k += 100) {
        const messages = Array.from({ length: Math.min(100, n - k) }, (_, i) => ({
          whatsappId: ids[(k + i) % CONNECTIONS]!,
          from: `5511977${String((k + i) % 60).padStart(5, '0')}`,
          body: `${tag} ${k + i}`,
        }));
        sent.push(...(await sims[(k / 100) % 2]!.inboundBatch(messages)).ids);
      }
      return sent;
    };
    const stored = () => count(`SELECT count(*) AS n FROM messages WHERE NOT "fromMe"`);
    const inbox = () => count(`SELECT count(*) AS n FROM session_inbox`);
    const handedOver = async () =>
      (await Promise.all(ids.map((id) => sims[0]!.deliveries(id)))).reduce(
        (n, d) => n + d.handedOver,
        0,
      );

    // The victim must still be storing when it is killed, however fast it stores: its customers
    // are known contacts whose rows the test holds locked until the kill (phone k writes to
    // connection k % 4, so each phone belongs to one connection).
    const victim = workerPids[0]!;
    const victimIds = ids.filter((_, i) => spread[i] === victim);
    const victimPhones = Array.from({ length: 60 }, (_, k) => k)
      .filter((k) => victimIds.includes(ids[k % CONNECTIONS]!))
      .map((k) => `5511977${String(k).padStart(5, '0')}`);
    await server.app.ds.query(
      `INSERT INTO contacts ("companyId", name, number) SELECT $1, n, n FROM unnest($2::text[]) n`,
      [companyId, victimPhones],
    );
    const hold = server.app.ds.createQueryRunner();
    await hold.connect();
    await hold.startTransaction();
    await hold.query(`SELECT id FROM contacts WHERE number = ANY($1) FOR UPDATE`, [victimPhones]);

    const wids = await burst(FIRST, 'rajada');
    // The signal to kill: every message handed over and durable (WhatsApp never hands these over
    // again), the victim's inbox not empty yet (it is storing them).
    const victimInbox = () =>
      count(`SELECT count(*) AS n FROM session_inbox WHERE "whatsappId" = ANY($1)`, [victimIds]);
    await until(async () => {
      const [handed, done, waiting, mine] = [
        await handedOver(),
        await stored(),
        await inbox(),
        await victimInbox(),
      ];
      return (handed === FIRST && done + waiting >= FIRST && mine > 0) || undefined;
    }, 20_000);
    mark('kill');
    const killedAt = Date.now();
    await killGroup(w1.child);
    groups.delete(victim);
    await hold.rollbackTransaction();
    await hold.release();
    const storedAtKill = await stored();
    expect(storedAtKill).toBeLessThan(FIRST);

    // Customers keep writing while the victim's connections have no session.
    wids.push(...(await burst(DURING_FAILOVER, 'durante')));
    const total = FIRST + DURING_FAILOVER;

    // The survivor takes the victim's connections once their leases expire.
    await until(async () => {
      const pids = await holders();
      return pids.every((p) => p === workerPids[1]) || undefined;
    }, LEASE_MS * 4);
    const takeover = Date.now() - killedAt;
    mark('taken over');
    expect(takeover).toBeLessThan(LEASE_MS + LEASE_MS / 3 + 2_000);

    await until(async () => ((await stored()) >= total ? true : undefined), 30_000);
    mark('all stored');
    const creates = (s: Listening) =>
      s.received.flatMap((e) => {
        const p = e.payload as { action?: string; message?: { wid: string } };
        return e.event.endsWith('-appMessage') && p.action === 'create' ? [p.message!.wid] : [];
      });
    const counts = (await server.app.ds.query(
      `SELECT wid, count(*)::int AS n FROM messages WHERE wid = ANY($1) GROUP BY wid`,
      [wids],
    )) as { wid: string; n: number }[];
    expect(counts).toHaveLength(total);
    expect(counts.filter((r) => r.n !== 1)).toEqual([]);
    expect(await stored()).toBe(total);
    expect(await inbox()).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM session_dead_letters`)).toBe(0);

    // The signal that the events are out: nothing pending in the change feed, and every socket
    // got the event of the feed's last ticket or message change. Each api process's relay emits
    // a company's numbers in order, reading from the log any its publisher never sent, so a
    // socket that has the last one has every one before it.
    await until(
      async () => (await count(`SELECT count(*) AS n FROM change_pending`)) === 0 || undefined,
      15_000,
    );
    const lastSeq = await count(
      `SELECT max(seq) AS n FROM change_log WHERE entity IN ('message', 'ticket')`,
    );
    const maxSeq = (s: Listening) =>
      s.received.reduce((m, e) => Math.max(m, (e.payload as { seq?: number }).seq ?? 0), 0);
    await until(() => sockets.every((s) => maxSeq(s) >= lastSeq) || undefined, 15_000);
    mark(`sockets hold ${sockets.map((s) => creates(s).length).join(', ')} of ${total}`);

    // Never doubled, on any socket of either api process; every socket got the same messages.
    const first = new Set(creates(sockets[0]!));
    for (const s of sockets) {
      const got = creates(s);
      expect(new Set(got).size).toBe(got.length);
      expect(new Set(got)).toEqual(first);
      expect(s.invalid).toEqual([]);
    }
    // Nothing missing either: the changes the killed worker numbered in its last move and never
    // published reach the sockets through the relays (from the log).
    const missing = wids.filter((w) => !first.has(w));
    expect(missing).toEqual([]);
    process.stdout.write(
      `multi-process: ${storedAtKill}/${FIRST} stored at the SIGKILL, takeover ${takeover} ms, every socket got all ${first.size} creates once\n`,
    );

    for (const child of groups.values()) await killGroup(child);
    for (const pgid of groups.keys()) {
      await until(() => !groupAlive(pgid) || undefined, 10_000);
    }
  },
);
