// Notes, agent replies and customer messages (through the simulator) written on one ticket at
// once: no request may fail with a 5xx, Postgres may detect no deadlock, every write is stored
// exactly once (issue 11 item 4).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionConflicts } from '../src/db/transaction.js';
import { adminUrl, databaseUrl } from './db-url.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { simConnection, until } from './ticketing/fixtures.js';

let server: TestServer;
let sim: SimulatorClient;
let admin: Session;
let companyId: number;
let whatsappId: number;

beforeAll(async () => {
  // A pool as large as production's default, so that many transactions really overlap.
  server = await startTestServer({ SIMULATOR: 'on', DB_POOL_SIZE: '12' });
  const company = await createCompanyWithAdmin(server);
  companyId = company.companyId;
  admin = company.admin;
  sim = new SimulatorClient(server.url, admin.token);
  whatsappId = await simConnection(server, admin, sim);
});
afterAll(() => server?.close());

/**
 * Deadlocks Postgres detected in the test's database. Backends report their counters lazily
 * (up to 10 s later); ending the idle pool connections makes each one report on exit.
 */
async function deadlocksDetected(): Promise<number> {
  const observer = new pg.Client({ connectionString: adminUrl() });
  await observer.connect();
  try {
    const { rows: ended } = await observer.query(
      `SELECT pid FROM pg_stat_activity, pg_terminate_backend(pid)
        WHERE datname = $1 AND state = 'idle' AND pid <> pg_backend_pid()`,
      [server.database],
    );
    const pids = ended.map((r: { pid: number }) => r.pid);
    await until(async () => {
      const { rows } = await observer.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1::int[])',
        [pids],
      );
      return rows[0].n === 0 || undefined;
    });
    const { rows } = await observer.query(
      'SELECT deadlocks::int AS n FROM pg_stat_database WHERE datname = $1',
      [server.database],
    );
    return rows[0].n as number;
  } finally {
    await observer.end();
  }
}

describe('concurrent writes on one ticket', () => {
  /** A ticket of a new customer, accepted by the admin. */
  async function openTicket(phone: string) {
    await sim.inbound({ whatsappId, from: phone, name: 'Rui', body: 'oi' });
    const ticket = await until(async () => {
      const [row] = await server.app.ds.query(
        `SELECT t.id, t."contactId" FROM tickets t JOIN contacts c ON c.id = t."contactId"
          WHERE c.number = $1 AND t."companyId" = $2`,
        [phone, companyId],
      );
      return row as { id: number; contactId: number } | undefined;
    });
    await server.request('PUT', `/tickets/${ticket.id}`, {
      token: admin.token,
      body: { status: 'open' },
    });
    return ticket;
  }

  // The inbound pipeline locks the contact, then the ticket (inbound.ts, inbound-fast.ts). A
  // transaction doing the same is held between its two locks while an agent writes.
  it.each([
    ['an agent reply', 'reply'],
    ['a note', 'note'],
  ] as const)(
    '%s waits for the inbound lock order instead of deadlocking with it',
    async (_, kind) => {
      const ticket = await openTicket(kind === 'reply' ? '5511966660101' : '5511966660102');
      const before = transactionConflicts.deadlocks;
      const inbound = new pg.Client({ connectionString: databaseUrl(server.database) });
      await inbound.connect();
      try {
        await inbound.query('BEGIN');
        await inbound.query('SELECT id FROM contacts WHERE id = $1 FOR UPDATE', [ticket.contactId]);
        const write =
          kind === 'reply'
            ? server.request('POST', `/messages/${ticket.id}`, {
                token: admin.token,
                body: { body: 'resposta no meio', clientId: `order-${ticket.id}-abcdef` },
              })
            : server.request('POST', '/ticket-notes', {
                token: admin.token,
                body: { note: 'nota no meio', ticketId: ticket.id, contactId: ticket.contactId },
              });
        // The agent's transaction is now waiting for a lock the "inbound" one holds.
        await until(async () => {
          const { rows } = await inbound.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
              AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          return rows.length > 0 || undefined;
        });
        await inbound.query('SELECT id FROM tickets WHERE id = $1 FOR UPDATE', [ticket.id]);
        await inbound.query('COMMIT');
        const answer = await write;
        expect(answer.status).toBe(201);
      } finally {
        await inbound.end();
      }
      expect(transactionConflicts.deadlocks - before).toBe(0);
    },
  );

  it('200 notes, replies and inbound messages at once: no 5xx, no deadlock, each stored once', async () => {
    const phone = '5511966660001';
    const first = await sim.inbound({ whatsappId, from: phone, name: 'Carla', body: 'primeira' });
    const ticket = await until(async () => {
      const [row] = await server.app.ds.query(
        `SELECT t.id, t."contactId" FROM tickets t JOIN contacts c ON c.id = t."contactId"
          WHERE c.number = $1 AND t."companyId" = $2`,
        [phone, companyId],
      );
      return row as { id: number; contactId: number } | undefined;
    });
    const accepted = await server.request('PUT', `/tickets/${ticket.id}`, {
      token: admin.token,
      body: { status: 'open' },
    });
    expect(accepted.status).toBe(200);
    const before = transactionConflicts.deadlocks;

    const kinds = ['note', 'reply', 'inbound'] as const;
    const requests = Array.from({ length: 200 }, (_, i) => {
      const kind = kinds[i % 3]!;
      if (kind === 'note')
        return server
          .request('POST', '/ticket-notes', {
            token: admin.token,
            body: { note: `nota ${i}`, ticketId: ticket.id, contactId: ticket.contactId },
          })
          .then((r) => ({ kind, status: r.status, body: r.body }));
      if (kind === 'reply')
        return server
          .request('POST', `/messages/${ticket.id}`, {
            token: admin.token,
            body: { body: `resposta ${i}`, clientId: `conc-${i}-${companyId}-abcdef` },
          })
          .then((r) => ({ kind, status: r.status, body: r.body }));
      // Half quote the first message: those take the general inbound path (more round trips
      // between the contact's lock and the ticket's), the others the fast one.
      return sim
        .inbound({
          whatsappId,
          from: phone,
          name: 'Carla',
          body: `cliente ${i}`,
          ...(i % 2 === 0 && { quotedId: first.id }),
        })
        .then(() => ({ kind, status: 200, body: undefined }));
    });
    const answers = await Promise.all(requests);
    const failed = answers.filter((a) => a.status >= 500);
    expect(failed).toEqual([]);
    expect(answers.every((a) => a.status < 300)).toBe(true);

    const expected = (kind: (typeof kinds)[number]) =>
      Array.from({ length: 200 }, (_, i) => i).filter((i) => kinds[i % 3] === kind);
    const notes = (await server.app.ds.query(
      'SELECT note FROM ticket_notes WHERE "ticketId" = $1 ORDER BY id',
      [ticket.id],
    )) as { note: string }[];
    expect(notes.map((n) => n.note).sort()).toEqual(
      expected('note')
        .map((i) => `nota ${i}`)
        .sort(),
    );
    const replies = (await server.app.ds.query(
      'SELECT body FROM messages WHERE "ticketId" = $1 AND "fromMe" ORDER BY id',
      [ticket.id],
    )) as { body: string }[];
    expect(replies.map((m) => m.body).sort()).toEqual(
      expected('reply')
        .map((i) => `resposta ${i}`)
        .sort(),
    );
    const inbound = expected('inbound').map((i) => `cliente ${i}`);
    const stored = await until(async () => {
      const rows = (await server.app.ds.query(
        'SELECT body FROM messages WHERE "ticketId" = $1 AND NOT "fromMe" AND body LIKE $2',
        [ticket.id, 'cliente %'],
      )) as { body: string }[];
      return rows.length >= inbound.length ? rows : undefined;
    }, 30_000);
    expect(stored.map((m) => m.body).sort()).toEqual(inbound.sort());
    const [counters] = await server.app.ds.query(
      'SELECT "unreadMessages" FROM tickets WHERE id = $1',
      [ticket.id],
    );
    expect(counters.unreadMessages).toBeGreaterThanOrEqual(inbound.length);

    expect(transactionConflicts.deadlocks - before).toBe(0);
    expect(await deadlocksDetected()).toBe(0);
  }, 120_000);
});
