// The inbound pipeline: every event of a WhatsApp session lands here, one at a time per
// session. A message is stored in one transaction (dedupe → contact → ticket → message →
// ticket counters → change feed); socket events, media jobs and routing run after commit.
import type { AppContext } from '../../context.js';
import { logger } from '../../logger.js';
import type { ConnectionRef, InboxEntry } from '../../whatsapp/hooks.js';
import { settleInbox } from '../../whatsapp/inbox.js';
import { enqueueMediaDownload } from '../../whatsapp/media.js';
import { storedMediaType, type PortEvent, type PortMessage } from '../../whatsapp/port.js';
import { upsertContact } from '../contacts/index.js';
import { commitWithChanges } from '../changes/index.js';
import { storedEvent } from './inbound-events.js';
import { fastEligible, storeFast } from './inbound-fast.js';
import { inboundCountersSql, upgradeInboundPreview } from '../tickets/index.js';
import {
  findOrCreateTicket,
  loadTicket,
  TICKET_VIEW_SQL,
  ticketChange,
  type TicketView,
} from '../tickets/index.js';
import {
  applyAck,
  applyContacts,
  applyEdit,
  applyReaction,
  applyRevoke,
} from './message-events.js';
import {
  loadMessage,
  MESSAGE_VIEW_SQL,
  messageChange,
  type MessageView,
} from './messages.queries.js';

/**
 * A message the session stored, as the consumers of its `message.stored` event see it
 * (`loadStoredInbound`): routing (queue menu, option tree, integrations, AI prompts, greeting,
 * out-of-hours) and the ticket timers.
 */
export interface StoredInbound {
  connection: ConnectionRef;
  message: MessageView;
  ticket: TicketView;
  /** A new ticket was opened for this message. */
  ticketCreated: boolean;
}

type Outcome =
  | { kind: 'duplicate' }
  | { kind: 'upgraded'; message: MessageView }
  | { kind: 'stored'; message: MessageView; ticket: TicketView; ticketCreated: boolean };

const chatAddress = (chatId: string) => chatId.replace(/@.*$/, '');

// The views read straight from the written row (one statement instead of write, then reload).
// Functions, not constants: read at load, another module's constant may not be set yet (import
// cycles between modules).
const INSERTED_MESSAGE_VIEW = () => MESSAGE_VIEW_SQL.replace('FROM messages m', 'FROM ins m');
const UPDATED_TICKET_VIEW = () => TICKET_VIEW_SQL.replace('FROM tickets t', 'FROM upd t');
const INBOUND_COUNTERS_SQL = () =>
  inboundCountersSql({
    ticket: '$1',
    at: '$2',
    body: '$3',
    unread: '$4',
  });

/** Thrown (and the transaction rolled back) when a message assumed new turns out to be known. */
class KnownMessage extends Error {}

/**
 * Stores one message exactly once per (company, connection, WhatsApp id, fromMe); the session's
 * inbox entry is settled in the transaction that stores it.
 */
export async function storeInboundMessage(
  app: AppContext,
  connection: ConnectionRef,
  msg: PortMessage,
  entry?: InboxEntry,
): Promise<Outcome> {
  const fast = fastEligible(msg) ? await storeFast(app, connection, msg, entry) : undefined;
  // Most messages are new: insert first and let the unique index say otherwise. A known id
  // (duplicate, replay, ciphertext upgrade) rolls that attempt back and takes the careful path.
  const attempt = fast
    ? {
        value: { kind: 'stored', ...fast, ticketCreated: false } as const,
        published: fast.published,
      }
    : await commitInbound(app, connection, msg, false, entry).catch((err: unknown) => {
        if (err instanceof KnownMessage) return undefined;
        throw err;
      });
  const { value: outcome, published } =
    attempt ?? (await commitInbound(app, connection, msg, true, entry));

  if (outcome.kind === 'duplicate') return outcome;
  if (msg.media) {
    await enqueueMediaDownload(app, {
      ...connection,
      media: msg.media,
      ref: { chatId: msg.chatId, id: msg.id, fromMe: msg.fromMe },
      messageId: outcome.message.id,
    }).catch((err: unknown) =>
      logger.error({ err, messageId: outcome.message.id }, 'media job not queued'),
    );
  }
  // What reacts to a stored message (routing, timers) reads its `message.stored` event, written in
  // the same transaction and already handed to this process's consumers. The session moves on to
  // its next event only once the agents' sockets have the message.
  await published;
  return outcome;
}

function commitInbound(
  app: AppContext,
  connection: ConnectionRef,
  msg: PortMessage,
  checkFirst: boolean,
  entry: InboxEntry | undefined,
) {
  const { companyId, whatsappId } = connection;
  const mediaType = storedMediaType(msg.type);
  return commitWithChanges<Outcome>(app, companyId, async (tx, changes) => {
    await settleInbox(tx, entry);
    const [existing] = !checkFirst
      ? []
      : ((await tx.query(
          `SELECT id, "mediaType" FROM messages
        WHERE "companyId" = $1 AND "whatsappId" = $2 AND wid = $3 AND "fromMe" = $4 FOR UPDATE`,
          [companyId, whatsappId, msg.id, msg.fromMe],
        )) as { id: number; mediaType: string }[]);
    if (existing) {
      // A ciphertext stub is upgraded in place once the real content arrives under its id.
      if (existing.mediaType !== 'ciphertext' || msg.type === 'ciphertext')
        return { kind: 'duplicate' };
      await tx.query(
        `UPDATE messages SET body = $2, "mediaType" = $3, "mediaRef" = $4, location = $5,
                vcards = $6, "quotedWid" = $7, "updatedAt" = now() WHERE id = $1`,
        [
          existing.id,
          msg.body,
          mediaType,
          msg.media ?? null,
          msg.location ?? null,
          msg.vcards ? JSON.stringify(msg.vcards) : null,
          msg.quotedId ?? null,
        ],
      );
      const message = await loadMessage(tx, companyId, existing.id);
      await upgradeInboundPreview(tx, message.ticketId, msg.body, new Date(msg.timestamp));
      const ticket = await loadTicket(tx, companyId, message.ticketId);
      changes.push(messageChange(message, ticket, 'update'), ticketChange(ticket));
      return { kind: 'upgraded', message };
    }

    const identity = msg.isGroup
      ? { phone: chatAddress(msg.chatId), name: msg.group?.subject, isGroup: true }
      : { ...msg.contact, name: msg.fromMe ? undefined : msg.pushName };
    const contactId = await upsertContact(tx, companyId, identity, changes);
    if (contactId === undefined) throw new Error(`message ${msg.id} has no sender identity`);
    const ticketRef = await findOrCreateTicket(tx, companyId, contactId, whatsappId, msg.isGroup);
    const participant = msg.isGroup
      ? (msg.participant?.phone ?? msg.participant?.lid ?? null)
      : null;
    const at = new Date(msg.timestamp);
    const [message] = (await tx.query(
      `WITH ins AS (INSERT INTO messages ("companyId", "whatsappId", "ticketId", "contactId", wid, "fromMe",
              body, ack, read, "mediaType", "mediaRef", location, vcards, participant, "quotedWid",
              "quotedMsgId", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::varchar,
              (SELECT id FROM messages WHERE "companyId" = $1 AND "whatsappId" = $2 AND wid = $15::varchar
                ORDER BY id LIMIT 1), $16)
       ON CONFLICT ("companyId", "whatsappId", wid, "fromMe") DO NOTHING RETURNING *)
       ${INSERTED_MESSAGE_VIEW()}`,
      [
        companyId,
        whatsappId,
        ticketRef.id,
        contactId,
        msg.id,
        msg.fromMe,
        msg.body,
        msg.fromMe ? 1 : 0,
        msg.fromMe,
        mediaType,
        msg.media ?? null,
        msg.location ?? null,
        msg.vcards ? JSON.stringify(msg.vcards) : null,
        participant,
        msg.quotedId ?? null,
        at,
      ],
    )) as MessageView[];
    if (!message) {
      if (!checkFirst) throw new KnownMessage();
      return { kind: 'duplicate' };
    }
    // The ticket counters (ticket-writes.ts), read back through the ticket view.
    const [ticket] = (await tx.query(
      `WITH upd AS (${INBOUND_COUNTERS_SQL()}) ${UPDATED_TICKET_VIEW()}`,
      [ticketRef.id, at, msg.body, msg.fromMe ? 0 : 1],
    )) as TicketView[];
    if (!ticket) throw new Error(`ticket ${ticketRef.id} vanished while storing a message`);
    changes.push(ticketChange(ticket), messageChange(message, ticket, 'create'));
    if (ticketRef.created) {
      changes.events.push({
        type: 'ticket.created',
        payload: { ticketId: ticket.id, contactId, whatsappId },
      });
    }
    changes.events.push(storedEvent(message, whatsappId, ticketRef.created));
    return { kind: 'stored', message, ticket, ticketCreated: ticketRef.created };
  });
}

/** The session handler: routes each provider event to the code that stores it. */
export async function handleSessionEvent(
  app: AppContext,
  connection: ConnectionRef,
  event: PortEvent,
  entry?: InboxEntry,
): Promise<void> {
  switch (event.name) {
    case 'message':
      // Reactions arrive as their own event; a reaction message is only the provider's echo.
      if (event.payload.type === 'reaction') return;
      // Setting CheckMsgIsGroup (admin §3): group messages are ignored, not stored as tickets.
      if (
        event.payload.isGroup &&
        (await app.settings.enabled(connection.companyId, 'CheckMsgIsGroup'))
      )
        return;
      await storeInboundMessage(app, connection, event.payload, entry);
      return;
    case 'ack':
      return applyAck(app, connection, event.payload, entry);
    case 'edit':
      return applyEdit(app, connection, event.payload, entry);
    case 'revoke':
      return applyRevoke(app, connection, event.payload, entry);
    case 'reaction':
      return applyReaction(app, connection, event.payload, entry);
    case 'contacts':
      return applyContacts(app, connection, event.payload, entry);
    case 'connection':
      return;
  }
}
