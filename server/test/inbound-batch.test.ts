// A connection's burst stored in one transaction (issue 14): known contacts' texts that reach the
// session together are stored by one transaction, in order, once each, with gap-free feed numbers;
// new contacts' first messages too (their contacts and tickets created in it); a message the batch
// cannot take ends the batch and the rest still follow in order; a poisoned
// message in the burst goes to the dead letters alone and every other message is stored, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortMessage } from '../src/whatsapp/port.js';
import { sessionManagerOf } from '../src/whatsapp/sessions.js';
import type { SimulatorProvider } from '../src/whatsapp/simulator/provider.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { simConnection, until } from './ticketing/fixtures.js';

let server: TestServer;
let companyId: number;
let whatsappId: number;
let sim: SimulatorClient;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  const company = await createCompanyWithAdmin(server);
  companyId = company.companyId;
  sim = new SimulatorClient(server.url, company.admin.token);
  whatsappId = await simConnection(server, company.admin, sim);
  await sim.faults(whatsappId, { noReplay: true });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const q = <T = any>(sql: string, params: unknown[] = []) =>
  server.app.ds.query(sql, params) as Promise<T[]>;

let seq = 0;
const phoneOf = (n: number) => `55119666${String(n).padStart(5, '0')}`;
const message = (phone: string, body: string, id = `BATCH${++seq}`): PortMessage => ({
  connectionId: String(whatsappId),
  id,
  fromMe: false,
  chatId: `${phone}@s.whatsapp.net`,
  contact: { phone },
  type: 'chat',
  body,
  timestamp: Date.now(),
  isGroup: false,
  offline: false,
});

/** Raises the messages in one go, as a provider does with a burst: one append, one run. */
function burst(messages: PortMessage[]) {
  const provider = sessionManagerOf(server.app)!.session(whatsappId)!.provider as SimulatorProvider;
  for (const m of messages) provider.events.emit('message', m);
}

const stored = (wids: string[]) =>
  q<{ id: number; wid: string; body: string; tx: string; ticketId: number }>(
    `SELECT id, wid, body, xmin::text AS tx, "ticketId" FROM messages
      WHERE "companyId" = $1 AND wid = ANY($2) ORDER BY id`,
    [companyId, wids],
  );

/** Known contacts, each with an open ticket (their first message, stored alone). */
async function knownContacts(from: number, count: number): Promise<string[]> {
  const phones = Array.from({ length: count }, (_, i) => phoneOf(from + i));
  for (const phone of phones) {
    const first = await sim.inbound({ whatsappId, from: phone, body: 'oi' });
    await until(async () => ((await stored([first.id])).length ? true : undefined), 10_000);
  }
  return phones;
}

describe('inbound batches', () => {
  it('stores a burst of known contacts in one transaction, in order, once, feed numbers gap-free', async () => {
    const phones = await knownContacts(0, 5);
    // Their first messages' changes are numbered before the burst's head is read.
    await until(async () => {
      const left = await q(`SELECT 1 FROM change_pending WHERE "companyId" = $1`, [companyId]);
      return left.length ? undefined : true;
    });
    const [counter] = await q<{ head: number }>(
      `SELECT seq::float8 AS head FROM change_counters WHERE "companyId" = $1`,
      [companyId],
    );
    const head = counter!.head;
    const messages = phones.map((p, i) => message(p, `rajada ${i}`));
    burst(messages);
    const wids = messages.map((m) => m.id);
    const rows = await until(async () => {
      const r = await stored(wids);
      return r.length === wids.length ? r : undefined;
    }, 10_000);
    expect(rows.map((r) => r.wid)).toEqual(wids);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    // Each message and its ticket's update are in the feed, numbered right after the head.
    const feed = await until(async () => {
      const f = await q<{ seq: number; entity: string; entityId: number }>(
        `SELECT seq::float8 AS seq, entity, "entityId" FROM change_log
          WHERE "companyId" = $1 AND seq > $2 ORDER BY seq`,
        [companyId, head],
      );
      return f.length >= 2 * wids.length ? f : undefined;
    });
    expect(feed.map((f) => f.seq)).toEqual(feed.map((_, i) => head + 1 + i));
    expect(feed.filter((f) => f.entity === 'message').map((f) => f.entityId)).toEqual(
      rows.map((r) => r.id),
    );
    const tickets = await q<{ unreadMessages: number; lastMessage: string }>(
      `SELECT "unreadMessages", "lastMessage" FROM tickets WHERE id = ANY($1) ORDER BY id`,
      [rows.map((r) => r.ticketId)],
    );
    expect(tickets.map((t) => t.unreadMessages)).toEqual(rows.map(() => 2));
    expect(tickets.map((t) => t.lastMessage).sort()).toEqual(rows.map((r) => r.body).sort());
    expect(await q(`SELECT 1 FROM session_inbox WHERE "whatsappId" = $1`, [whatsappId])).toEqual(
      [],
    );
  });

  it('a second message from one contact ends the batch and the order is kept', async () => {
    const phones = await knownContacts(10, 3);
    const messages = [
      message(phones[0]!, 'a'),
      message(phones[1]!, 'b'),
      message(phoneOf(99), 'novo contato'),
      message(phones[2]!, 'c'),
      message(phones[2]!, 'c de novo'),
      message(phones[0]!, 'a de novo'),
    ];
    burst(messages);
    const wids = messages.map((m) => m.id);
    const rows = await until(async () => {
      const r = await stored(wids);
      return r.length === wids.length ? r : undefined;
    }, 10_000);
    expect(rows.map((r) => r.wid)).toEqual(wids);
    // The new contact is in the batch; the second message of a contact starts the next one.
    expect(new Set(rows.slice(0, 4).map((r) => r.tx)).size).toBe(1);
    expect(rows[4]!.tx).not.toBe(rows[3]!.tx);
  });

  it('new contacts in a burst: each contact and pending ticket created in the batch, with their feed changes and events', async () => {
    const phones = [phoneOf(200), phoneOf(201), phoneOf(202)];
    const messages = phones.map((p, i) => message(p, `primeira ${i}`, undefined));
    messages[1] = { ...messages[1]!, pushName: 'Maria Cliente' };
    burst(messages);
    const wids = messages.map((m) => m.id);
    const rows = await until(async () => {
      const r = await stored(wids);
      return r.length === wids.length ? r : undefined;
    }, 10_000);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    const contacts = await q<{ id: number; name: string; number: string }>(
      `SELECT id, name, number FROM contacts WHERE "companyId" = $1 AND number = ANY($2) ORDER BY number`,
      [companyId, phones],
    );
    expect(contacts.map((c) => c.name)).toEqual([phones[0], 'Maria Cliente', phones[2]]);
    const tickets = await q<{ status: string; unreadMessages: number; contactId: number }>(
      `SELECT status, "unreadMessages", "contactId" FROM tickets WHERE id = ANY($1) ORDER BY id`,
      [rows.map((r) => r.ticketId)],
    );
    expect(tickets.map((t) => [t.status, t.unreadMessages])).toEqual(
      phones.map(() => ['pending', 1]),
    );
    // Per message, in the general path's order: contact create, ticket, message.
    const feed = await until(async () => {
      const f = await q<{ entity: string; action: string; entityId: number }>(
        `SELECT entity, action, "entityId" FROM change_log
          WHERE "companyId" = $1 AND ((entity = 'contact' AND "entityId" = ANY($2))
             OR (entity = 'message' AND "entityId" = ANY($3))) ORDER BY seq`,
        [companyId, contacts.map((c) => c.id), rows.map((r) => r.id)],
      );
      return f.length === 6 ? f : undefined;
    });
    expect(feed.map((f) => `${f.entity}:${f.action}`)).toEqual(
      phones.flatMap(() => ['contact:create', 'message:create']),
    );
    const events = await q<{ type: string }>(
      `SELECT type FROM domain_events WHERE "companyId" = $1
          AND ((payload->>'contactId')::int = ANY($2) OR (payload->>'messageId')::int = ANY($3))
        ORDER BY id`,
      [companyId, contacts.map((c) => c.id), rows.map((r) => r.id)],
    );
    expect(events.map((e) => e.type)).toEqual(
      phones.flatMap(() => ['contact.created', 'ticket.created', 'message.stored']),
    );
  });

  it('a poisoned message in a burst goes to the dead letters alone; the others are stored in order', async () => {
    const phones = await knownContacts(20, 4);
    // A WhatsApp id longer than the column: the batch's statement fails, then this one alone.
    const poisoned = message(phones[1]!, 'veneno', `POISON${'X'.repeat(140)}`);
    const messages = [
      message(phones[0]!, 'antes'),
      poisoned,
      message(phones[2]!, 'depois'),
      message(phones[3]!, 'por último'),
    ];
    burst(messages);
    const good = messages.filter((m) => m !== poisoned).map((m) => m.id);
    const rows = await until(async () => {
      const r = await stored(good);
      return r.length === good.length ? r : undefined;
    }, 15_000);
    expect(rows.map((r) => r.wid)).toEqual(good);
    const letters = await until(async () => {
      const l = await q<{ event: { payload: { id: string } } }>(
        `SELECT event FROM session_dead_letters WHERE "whatsappId" = $1`,
        [whatsappId],
      );
      return l.length ? l : undefined;
    });
    expect(letters.map((l) => l.event.payload.id)).toEqual([poisoned.id]);
    expect(await stored([poisoned.id])).toEqual([]);
  });
});
