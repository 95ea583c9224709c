// A connection's burst of common messages stored in one transaction (issue 14): the messages of
// known contacts into their open tickets, as the fast path (inbound-fast.ts) stores one, but a
// run of them with one write statement, one read of the tickets, one write of their change-feed
// rows and domain events and one commit, all with parameters (named statements, planned once per
// database connection). The session hands over consecutive `message` rows of its inbox; this
// stores the longest prefix it can, in order, and the session gives the rest to the one-at-a-time
// path. One message that does not fit (a new contact, a duplicate, a name to update) ends the
// prefix; a statement that fails stores nothing and the session takes every row of the run one at
// a time, so a poisoned message is isolated there and never takes the others down.
import type { AppContext } from '../../context.js';
import { logger } from '../../logger.js';
import type { ConnectionRef, InboxEntry } from '../../whatsapp/hooks.js';
import { storedMediaType, type PortEvent, type PortMessage } from '../../whatsapp/port.js';
import {
  domainEventJson,
  domainEventsWritten,
  pendingWithEventsSql,
  publishCommitted,
  withPendingIds,
  pendingJson,
  type Change,
  type DomainEventInput,
} from '../changes/index.js';
import {
  inboundCountersSql,
  loadTickets,
  ticketChange,
  type TicketView,
} from '../tickets/index.js';
import { contactChange, loadContacts } from '../contacts/index.js';
import { storedEvent } from './inbound-events.js';
import { MESSAGE_VIEW_SQL, messageChange, type MessageView } from './messages.queries.js';

/** Messages per transaction at most (bounds the locks held and the statement's arrays). */
export const INBOUND_BATCH_MAX = 100;

interface PgClient {
  query: (q: { name?: string; text: string; values?: unknown[] }) => Promise<{ rows: unknown[] }>;
}

/**
 * One statement for the whole run: lock the contacts and their open tickets, insert the messages
 * whose contact and ticket are as the fast path needs them, move those tickets' counters, settle
 * their inbox rows, and answer the inserted messages through the message view. A function, not a
 * constant: other modules' constants may not be set at load (import cycles).
 */
const writeSql = () => `
  WITH x AS (
    SELECT * FROM unnest($3::text[], $4::text[], $5::bool[], $6::text[], $7::timestamptz[],
                         $8::text[], $9::text[], $10::bigint[])
      WITH ORDINALITY AS x(phone, wid, "fromMe", body, at, "mediaType", name, "inboxId", n)),
  c AS (
    SELECT id, name, number, lid FROM contacts
     WHERE "companyId" = $1 AND number = ANY($3::text[]) ORDER BY id FOR UPDATE),
  cx AS (
    SELECT x.n, min(c.id) AS "contactId", count(c.id) AS matches,
           coalesce(bool_or(x.name IS NOT NULL AND x.name <> coalesce(c.name, '')
             AND (coalesce(c.name, '') = '' OR c.name = c.number OR c.name = c.lid)), false)
             AS renames
      FROM x LEFT JOIN c ON c.number = x.phone GROUP BY x.n),
  t AS (
    SELECT id, "contactId" FROM tickets
     WHERE "contactId" IN (SELECT "contactId" FROM cx WHERE matches = 1 AND NOT renames)
       AND "whatsappId" = $2 AND status <> 'closed' ORDER BY id FOR UPDATE),
  ok AS (
    SELECT x.*, cx."contactId", t.id AS "ticketId"
      FROM x JOIN cx ON cx.n = x.n AND cx.matches = 1 AND NOT cx.renames
      JOIN t ON t."contactId" = cx."contactId"
     WHERE (SELECT count(*) FROM t t2 WHERE t2."contactId" = cx."contactId") = 1),
  ins AS (
    INSERT INTO messages ("companyId", "whatsappId", "ticketId", "contactId", wid, "fromMe", body,
           ack, read, "mediaType", "createdAt")
    SELECT $1, $2, ok."ticketId", ok."contactId", ok.wid, ok."fromMe", ok.body,
           CASE WHEN ok."fromMe" THEN 1 ELSE 0 END, ok."fromMe", ok."mediaType", ok.at
      FROM ok ORDER BY ok.n
    ON CONFLICT ("companyId", "whatsappId", wid, "fromMe") DO NOTHING RETURNING *),
  upd AS (${inboundCountersSql({
    ticket: `ANY (SELECT "ticketId" FROM ins)`,
    at: `(SELECT i."createdAt" FROM ins i WHERE i."ticketId" = tickets.id)`,
    body: `(SELECT i.body FROM ins i WHERE i."ticketId" = tickets.id)`,
    unread: `(SELECT CASE WHEN i."fromMe" THEN 0 ELSE 1 END FROM ins i WHERE i."ticketId" = tickets.id)`,
  })}),
  settled AS (
    DELETE FROM session_inbox WHERE id IN (
      SELECT x."inboxId" FROM x JOIN ins ON ins.wid = x.wid AND ins."fromMe" = x."fromMe"))
  ${MESSAGE_VIEW_SQL.replace('FROM messages m', 'FROM ins m')}`;

/**
 * The run's first step, in its transaction: a contact for each sender phone the company does not
 * know (named as the general path names it), then a pending ticket for each of the run's contacts
 * that has no open ticket on this connection (new or known), as `findOrCreateTicket` would. Rows
 * another transaction inserts meanwhile are left to it (ON CONFLICT DO NOTHING); the write
 * statement that follows sees both. Answers the ids created here.
 */
const NEW_CONTACTS_SQL = `
  WITH x AS (SELECT * FROM unnest($3::text[], $4::text[]) AS x(phone, name)),
  nc AS (
    INSERT INTO contacts ("companyId", name, number, lid, "isGroup")
    SELECT DISTINCT ON (x.phone) $1, coalesce(nullif(x.name, ''), x.phone), x.phone, NULL, false
      FROM x
     WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c."companyId" = $1 AND c.number = x.phone)
    ON CONFLICT DO NOTHING RETURNING id),
  known AS (
    SELECT c.id FROM contacts c
     WHERE c."companyId" = $1 AND c.number = ANY($3::text[]) AND NOT c."isGroup"
       AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t."contactId" = c.id AND t."whatsappId" = $2
                         AND t.status <> 'closed')),
  nt AS (
    INSERT INTO tickets ("companyId", "contactId", "whatsappId", status, "isGroup")
    SELECT $1, n.id, $2, 'pending', false FROM (SELECT id FROM nc UNION SELECT id FROM known) n
    ON CONFLICT ("contactId", "whatsappId") WHERE status <> 'closed' DO NOTHING RETURNING id)
  SELECT (SELECT coalesce(array_agg(id), '{}') FROM nc) AS contacts,
         (SELECT coalesce(array_agg(id), '{}') FROM nt) AS tickets`;

export interface BatchItem {
  event: PortEvent;
  entry: InboxEntry;
}

/** Whether the message can take the fast path at all (the rest is decided by what SQL finds). */
export const fastEligible = (msg: PortMessage) =>
  !msg.isGroup &&
  !msg.contact.lid &&
  Boolean(msg.contact.phone) &&
  msg.type === 'chat' &&
  !msg.media &&
  !msg.location &&
  !msg.vcards &&
  !msg.quotedId;

/** The message a batch can take, or undefined. */
function batchable(event: PortEvent): PortMessage | undefined {
  if (event.name !== 'message') return undefined;
  const msg = event.payload;
  return msg.type !== 'reaction' && fastEligible(msg) ? msg : undefined;
}

/**
 * Stores the longest prefix of `items` that the batch can take, in one transaction, and answers
 * how many it stored (0: the session handles the first one alone; −k: the first k are not for the
 * batch). Rejects when the transaction failed (nothing is stored then).
 */
export async function storeInboundBatch(
  app: AppContext,
  ref: ConnectionRef,
  items: readonly BatchItem[],
): Promise<number> {
  // The prefix: common messages, one per contact (one ticket row update each), at most the limit.
  const run: RunItem[] = [];
  const phones = new Set<string>();
  for (const item of items) {
    const msg = batchable(item.event);
    if (!msg || phones.has(msg.contact.phone!) || run.length >= INBOUND_BATCH_MAX) break;
    phones.add(msg.contact.phone!);
    run.push({ msg, entry: item.entry });
  }
  if (run.length < 2) return 0;
  try {
    const written = await writeKnownRun(app, ref, run, { createContacts: true });
    // As one at a time: the session moves on once the agents' sockets have the messages. The
    // run's connection went back first: numbering takes one from the pool, and every session
    // waiting here while holding its own would leave none (the failover bench's survivor stopped
    // dead that way).
    if (written.take > 0) await written.published;
    return written.take;
  } catch (err) {
    logger.warn({ err, whatsappId: ref.whatsappId, messages: run.length }, 'inbound batch failed');
    throw err;
  }
}

export interface RunItem {
  msg: PortMessage;
  entry?: InboxEntry;
}

export type WrittenRun =
  | {
      /** How many of the run's first messages were stored (≥ 1). */
      take: number;
      messages: MessageView[];
      tickets: Map<number, TicketView>;
      /** Resolves once the changes are numbered and handed to the sockets. */
      published: Promise<void>;
    }
  | { take: number; messages?: undefined; tickets?: undefined; published?: undefined };

/**
 * Writes the longest prefix of `run` (known contacts' common messages into their open tickets,
 * one message per contact) in one transaction: one write statement, one read of the tickets, one
 * write of the change-feed rows and domain events, all with parameters (named statements, planned
 * once per database connection). `take` ≤ 0 when the first message does not fit (−k: the first k
 * do not), and nothing is written then. With `createContacts`, the run's new contacts and
 * missing tickets are created first (`NEW_CONTACTS_SQL`, one more statement); both bursts and
 * the one-message fast path (inbound-fast.ts, a run of one) ask for it.
 */
export async function writeKnownRun(
  app: AppContext,
  { companyId, whatsappId }: ConnectionRef,
  run: readonly RunItem[],
  { createContacts }: { createContacts: boolean },
): Promise<WrittenRun> {
  const runner = app.ds.createQueryRunner();
  const client = (await runner.connect()) as PgClient;
  let open = false;
  try {
    for (let take = run.length; take >= 1;) {
      const part = run.slice(0, take);
      await client.query({ text: 'BEGIN' });
      open = true;
      const created = !createContacts
        ? { contacts: [], tickets: [] }
        : ((
            await client.query({
              name: 'inbound-batch-new',
              text: NEW_CONTACTS_SQL,
              values: [
                companyId,
                whatsappId,
                part.map((p) => p.msg.contact.phone!),
                part.map((p) => (p.msg.fromMe || !p.msg.pushName ? null : p.msg.pushName)),
              ],
            })
          ).rows[0] as { contacts: number[]; tickets: number[] });
      const { rows } = await client.query({
        name: 'inbound-batch-write',
        text: writeSql(),
        values: [
          companyId,
          whatsappId,
          part.map((p) => p.msg.contact.phone!),
          part.map((p) => p.msg.id),
          part.map((p) => p.msg.fromMe),
          part.map((p) => p.msg.body),
          part.map((p) => new Date(p.msg.timestamp)),
          part.map((p) => storedMediaType(p.msg.type)),
          part.map((p) => (p.msg.fromMe || !p.msg.pushName ? null : p.msg.pushName)),
          part.map((p) => p.entry?.id ?? null),
        ],
      });
      const byRef = new Map(
        (rows as MessageView[]).map((m) => [`${m.fromMe ? 1 : 0}:${m.wid}`, m] as const),
      );
      const messages = part.map((p) => byRef.get(`${p.msg.fromMe ? 1 : 0}:${p.msg.id}`));
      const stored = messages.findIndex((m) => !m);
      if (stored === 0) {
        // The first does not fit: neither do the ones up to the next that was inserted. Handled
        // one at a time without asking again (a flood of new contacts costs one try per run).
        await client.query({ text: 'ROLLBACK' });
        open = false;
        const next = messages.findIndex((m) => m);
        return { take: -(next === -1 ? part.length : next) };
      }
      if (stored !== -1) {
        // A message the batch cannot take: only the ones before it may commit (order).
        await client.query({ text: 'ROLLBACK' });
        open = false;
        take = stored;
        continue;
      }
      const views = messages as MessageView[];
      const tickets = await loadTickets(
        runner.manager,
        companyId,
        views.map((m) => m.ticketId),
      );
      const ticketById = new Map<number, TicketView>(tickets.map((t) => [t.id, t]));
      const newContacts = new Map(
        (await loadContacts(runner.manager, companyId, created.contacts)).map((c) => [c.id, c]),
      );
      const newTickets = new Set(created.tickets);
      // Per message, in the general path's order: the contact, the ticket, the message.
      const changes: Change[] = [];
      const events: DomainEventInput[] = [];
      for (const message of views) {
        const ticket = ticketById.get(message.ticketId)!;
        const contact = newContacts.get(message.contactId);
        if (contact) {
          changes.push(contactChange(contact, 'create'));
          events.push({ type: 'contact.created', payload: { contactId: contact.id } });
        }
        const ticketCreated = newTickets.has(ticket.id);
        if (ticketCreated) {
          events.push({
            type: 'ticket.created',
            payload: { ticketId: ticket.id, contactId: message.contactId, whatsappId },
          });
        }
        changes.push(ticketChange(ticket), messageChange(message, ticket, 'create'));
        events.push(storedEvent(message, whatsappId, ticketCreated));
      }
      const inserted = await client.query({
        name: 'inbound-batch-changes',
        text: pendingWithEventsSql(),
        values: [companyId, pendingJson(changes), domainEventJson(events)],
      });
      await client.query({ text: 'COMMIT' });
      open = false;
      for (const p of part) if (p.entry) p.entry.settled = true;
      domainEventsWritten(app);
      const pending = withPendingIds(changes, inserted.rows as { id: number }[]);
      return {
        take,
        messages: views,
        tickets: ticketById,
        published: publishCommitted(app, companyId, pending),
      };
    }
    return { take: 0 };
  } catch (err) {
    if (open) await client.query({ text: 'ROLLBACK' }).catch(() => undefined);
    throw err;
  } finally {
    await runner.release();
  }
}
