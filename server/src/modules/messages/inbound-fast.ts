// The inbound pipeline's common case in two round trips instead of seven: a new text message from
// a known contact (found by phone, nothing to update) into its open ticket. The first round trip
// begins the transaction, locks the contact and the ticket and writes the message and the ticket
// counters (the views come back from the writing statements); the second writes the change-feed
// rows and commits. Anything else (new contact or ticket, a known id, a name or LID to learn, a
// group) rolls back and the general path stores the message. Statements are sent as one
// multi-statement query, so values are inlined as literals escaped by the driver.
import type { AppContext } from '../../context.js';
import type { ConnectionRef, InboxEntry } from '../../whatsapp/hooks.js';
import { settleInboxSql } from '../../whatsapp/inbox.js';
import { storedMediaType, type PortMessage } from '../../whatsapp/port.js';
import { pendingInsertSql, pendingJson, withPendingIds, type Change } from '../changes/index.js';
import { domainEventInsertSql, domainEventJson, domainEventsWritten } from '../changes/index.js';
import { publishCommitted } from '../changes/index.js';
import {
  inboundCountersSql,
  TICKET_VIEW_SQL,
  ticketChange,
  type TicketView,
} from '../tickets/index.js';
import { storedEvent } from './inbound-events.js';
import { MESSAGE_VIEW_SQL, messageChange, type MessageView } from './messages.queries.js';

interface Client {
  query: (sql: string) => Promise<{ rows: unknown[] }[] | { rows: unknown[] }>;
  escapeLiteral: (value: string) => string;
}

export interface FastStored {
  message: MessageView;
  ticket: TicketView;
  published: Promise<void>;
}

// Functions, not constants: read at load, another module's constant may not be set yet (import
// cycles between modules).
const INSERTED_MESSAGE_VIEW = () => MESSAGE_VIEW_SQL.replace('FROM messages m', 'FROM ins m');
const UPDATED_TICKET_VIEW = () => TICKET_VIEW_SQL.replace('FROM tickets t', 'FROM upd t');

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

/**
 * Stores the message in one transaction if it is the common case; undefined (and nothing
 * written) when the general path must take it.
 */
export async function storeFast(
  app: AppContext,
  { companyId, whatsappId }: ConnectionRef,
  msg: PortMessage,
  entry?: InboxEntry,
): Promise<FastStored | undefined> {
  const ints = [companyId, whatsappId];
  if (!ints.every(Number.isSafeInteger)) return undefined;
  const runner = app.ds.createQueryRunner();
  const client = (await runner.connect()) as Client;
  const lit = (value: string) => client.escapeLiteral(value);
  const phone = lit(msg.contact.phone!);
  const contactIds = `SELECT id FROM contacts WHERE "companyId" = ${companyId} AND number = ${phone}`;
  const openTicket = `SELECT id FROM tickets WHERE "contactId" = (${contactIds})
     AND "whatsappId" = ${whatsappId} AND status <> 'closed'`;
  const at = lit(new Date(msg.timestamp).toISOString());
  const body = lit(msg.body);
  const unread = msg.fromMe ? 0 : 1;
  let open = false;
  try {
    open = true;
    // The session's inbox row is deleted first, as every handler does (one lock order).
    const settle = entry ? settleInboxSql(entry) : 'SELECT 1';
    const results = (await client.query(`BEGIN; ${settle};
      SELECT id, name, number, lid FROM contacts
       WHERE "companyId" = ${companyId} AND number = ${phone} ORDER BY id FOR UPDATE;
      SELECT id FROM tickets WHERE id = (${openTicket}) AND status <> 'closed' FOR UPDATE;
      WITH ins AS (
        INSERT INTO messages ("companyId", "whatsappId", "ticketId", "contactId", wid, "fromMe",
               body, ack, read, "mediaType", "createdAt")
        SELECT ${companyId}, ${whatsappId}, t.id, t."contactId", ${lit(msg.id)}, ${msg.fromMe},
               ${body}, ${msg.fromMe ? 1 : 0}, ${msg.fromMe}, ${lit(storedMediaType(msg.type))},
               ${at}::timestamptz
          FROM tickets t WHERE t.id = (${openTicket})
        ON CONFLICT ("companyId", "whatsappId", wid, "fromMe") DO NOTHING RETURNING *)
      ${INSERTED_MESSAGE_VIEW()};
      WITH upd AS (${inboundCountersSql({
        ticket: `(${openTicket})`,
        at: `${at}::timestamptz`,
        body,
        unread: String(unread),
      })})
      ${UPDATED_TICKET_VIEW()};`)) as { rows: unknown[] }[];
    const contacts = results[2]!.rows as { name: string; number: string; lid: string | null }[];
    const [message] = results[4]!.rows as MessageView[];
    const [ticket] = results[5]!.rows as TicketView[];
    const contact = contacts[0];
    const name = msg.fromMe ? undefined : msg.pushName;
    // What upsertContact would change (a better name) is left to the general path.
    const placeholder =
      contact && (!contact.name || contact.name === contact.number || contact.name === contact.lid);
    if (
      contacts.length !== 1 ||
      !message ||
      !ticket ||
      (name && placeholder && name !== contact.name)
    ) {
      await client.query('ROLLBACK');
      open = false;
      return undefined;
    }
    const changes: Change[] = [ticketChange(ticket), messageChange(message, ticket, 'create')];
    const events = domainEventJson([storedEvent(message, whatsappId, false)]);
    const [inserted] = (await client.query(
      `${pendingInsertSql(String(companyId), lit(pendingJson(changes)))};
       ${domainEventInsertSql(String(companyId), lit(events))}; COMMIT;`,
    )) as { rows: { id: number }[] }[];
    open = false;
    domainEventsWritten(app);
    const pending = withPendingIds(changes, inserted!.rows);
    return { message, ticket, published: publishCommitted(app, companyId, pending) };
  } catch (err) {
    if (open) await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await runner.release();
  }
}
