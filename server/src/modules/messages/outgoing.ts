// The one writer of outgoing messages (issue 12 item 5): agents' replies, the greeting on accept,
// the bot, rating, notices, timers, and every sender to come (campaigns, schedules, the external
// API, integrations, AI). One path does the client-id dedupe, the message row, the ticket
// counters, the change-feed rows and the send job in its lane. Inbound messages have their own
// writer (inbound.ts, inbound-fast.ts); server/test/one-writer.test.ts fails on any other.
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { lockTicketForWrite } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import { logger } from '../../logger.js';
import type { OutboundContent, OutboundJob } from '../../whatsapp/hooks.js';
import { mediaKindOf } from '../../whatsapp/media.js';
import { enqueueOutbound } from '../../whatsapp/outbound.js';
import { withChanges, type ChangeList } from '../changes/index.js';
import type { Lane } from '../governor/index.js';
import { loadTicket, ticketChange, touchForOutgoing, type TicketView } from '../tickets/index.js';
import { outgoingStored } from './inbound-events.js';
import { loadMessage, messageChange, type MessageView } from './messages.queries.js';

/** Who sends. Each origin has its lane: replies in a conversation never wait behind bulk. */
export const OUTGOING_LANES = {
  /** An agent's reply (POST /messages/:ticketId). */
  agent: 'agent',
  /** The agent's greeting when accepting a ticket (sendGreetingAccepted). */
  greeting: 'agent',
  /** The bot's menus, greetings and out-of-hours answers (modules/routing). */
  bot: 'agent',
  /** The rating question and the completion message (modules/rating). */
  rating: 'agent',
  /** Notices to the customer about their ticket (the transfer notice). */
  notice: 'agent',
  /** Ticket timers (the idle-expiry message). */
  timer: 'agent',
  /** An integration or AI prompt answering in the conversation. */
  integration: 'agent',
  ai: 'agent',
  /** Campaigns: paced by the send governor, inside its sending window. */
  campaign: 'bulk',
  /**
   * A scheduled message: one message an agent wrote for one contact, due at the time they chose
   * (a 21:00 schedule goes out at 21:00, not at the bulk window's next opening).
   */
  schedule: 'agent',
  /**
   * The external API: one message another system sends now (an order update, a code), expected
   * within seconds at any hour; its volume is bounded by the per-token limit
   * (`EXTERNAL_API_RATE_LIMIT`) and the agent lane's token bucket.
   */
  api: 'agent',
} as const satisfies Record<string, Lane>;

export type OutgoingOrigin = keyof typeof OUTGOING_LANES;

/** A WhatsApp id as Baileys makes them: '3EB0' and 18 uppercase hex characters. */
export const newWhatsappId = () => `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;

export interface OutgoingMedia {
  /** Path under the media root (`<companyId>/<file>`), read by the send job. */
  path: string;
  /** The stored `mediaUrl`. */
  url: string;
  mimetype: string;
  /** The file's own name: shown on the bubble and, without text, as the ticket's preview. */
  fileName?: string;
  /** Recorded in the app: WhatsApp gets it as a voice note. */
  voiceNote?: boolean;
}

export interface Outgoing {
  companyId: number;
  /** The ticket as read in this transaction, locked (`lockTicketForWrite`), with a connection. */
  ticket: TicketView;
  body: string;
  media?: OutgoingMedia;
  quoted?: MessageView;
  /** The sender's idempotency key: the same one twice stores and sends once. */
  clientId?: string;
  /** The agent who sends it; `null` for the platform. */
  userId: number | null;
  origin: OutgoingOrigin;
}

export interface StoredOutgoing {
  message: MessageView;
  job: OutboundJob;
  lane: Lane;
}

interface ChatRow {
  number: string;
  lid: string | null;
  isGroup: boolean;
}

/** Where to send: a group's chat id, the phone digits, or the LID when no phone is known. */
export function chatTarget(contact: ChatRow): string {
  if (contact.isGroup) return `${contact.number}@g.us`;
  return contact.number || `${contact.lid}@lid`;
}

const storedType = (mimetype: string) => {
  const kind = mediaKindOf(mimetype);
  return kind === 'document' ? 'application' : kind;
};

/**
 * Writes an outgoing message in the caller's transaction: the row (its WhatsApp id chosen here,
 * so the provider's echo dedupes against it), the ticket's preview and time, and the change-feed
 * rows. Answers undefined when the `clientId` is already stored (nothing written). The job is
 * queued after commit by `dispatchOutgoing`.
 */
export async function storeOutgoing(
  tx: EntityManager,
  changes: ChangeList,
  input: Outgoing,
): Promise<StoredOutgoing | undefined> {
  const { companyId, ticket, media, quoted } = input;
  if (ticket.whatsappId == null) throw new AppError('ERR_NO_WAPP_FOUND');
  const body = input.body.trim();
  if (!body && !media) throw new AppError('ERR_EMPTY_MESSAGE');
  const wid = newWhatsappId();
  const at = new Date();
  const [inserted] = (await tx.query(
    `INSERT INTO messages ("companyId", "whatsappId", "ticketId", "contactId", wid, "fromMe", body,
            ack, read, "mediaType", "mediaUrl", "quotedMsgId", "quotedWid", "clientId", "userId",
            "createdAt", "mediaRef")
     VALUES ($1, $2, $3, $4, $5, true, $6, 0, true, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT ("companyId", "clientId") WHERE "clientId" IS NOT NULL DO NOTHING RETURNING id`,
    [
      companyId,
      ticket.whatsappId,
      ticket.id,
      ticket.contactId,
      wid,
      body,
      media ? storedType(media.mimetype) : 'chat',
      media?.url ?? null,
      quoted?.id ?? null,
      quoted?.wid ?? null,
      input.clientId ?? null,
      input.userId,
      at,
      // The upload's own name, for file bubbles (the stored file has a random name).
      media?.fileName ? JSON.stringify({ fileName: media.fileName }) : null,
    ],
  )) as { id: number }[];
  if (!inserted) return undefined;
  await touchForOutgoing(tx, ticket.id, body || media?.fileName || '', at);
  const message = await loadMessage(tx, companyId, inserted.id);
  const updated = await loadTicket(tx, companyId, ticket.id);
  changes.push(ticketChange(updated), messageChange(message, updated, 'create'));
  changes.events.push(outgoingStored(message, input.origin));
  const [contact] = (await tx.query('SELECT number, lid, "isGroup" FROM contacts WHERE id = $1', [
    ticket.contactId,
  ])) as ChatRow[];
  const to = chatTarget(contact!);
  const content: OutboundContent = media
    ? {
        kind: 'media',
        path: media.path,
        mimetype: media.mimetype,
        ...(media.fileName && { fileName: media.fileName }),
        ...(body && { caption: body }),
        ...(media.voiceNote && { voiceNote: true }),
      }
    : { kind: 'text', body };
  const job: OutboundJob = {
    companyId,
    whatsappId: ticket.whatsappId,
    to,
    content,
    waMessageId: wid,
    messageId: message.id,
    ...(quoted && {
      quoted: {
        chatId: to.includes('@') ? to : `${to}@s.whatsapp.net`,
        id: quoted.wid,
        fromMe: quoted.fromMe,
      },
    }),
  };
  return { message, job, lane: OUTGOING_LANES[input.origin] };
}

/**
 * Queues the send of a committed message in its lane. A job that cannot be queued marks the
 * message failed (`sendError`) and answers false.
 */
export async function dispatchOutgoing(app: AppContext, stored: StoredOutgoing): Promise<boolean> {
  try {
    await enqueueOutbound(app, stored.job, { lane: stored.lane });
    return true;
  } catch (err) {
    logger.error({ err, messageId: stored.message.id }, 'outbound not queued');
    await markSendFailed(app, stored.job.companyId, stored.message.id, 'ERR_SENDING_WAPP_MSG');
    return false;
  }
}

export interface OutgoingRequest extends Omit<Outgoing, 'companyId' | 'ticket' | 'quoted'> {
  ticketId: number;
  quotedMsgId?: number;
}

export interface SentOutgoing {
  message: MessageView;
  /** The clientId was known: the stored message, nothing sent again. */
  duplicate: boolean;
  /** The send job is queued (false: the message is marked failed). */
  queued: boolean;
}

/**
 * The whole path in its own transaction: dedupe by clientId, lock and read the ticket, let
 * `check` refuse (access), store, commit, publish, queue. Throws ERR_NO_TICKET_FOUND,
 * ERR_NO_WAPP_FOUND (a ticket without a connection), ERR_EMPTY_MESSAGE or what `check` throws.
 */
export async function sendOutgoing(
  app: AppContext,
  companyId: number,
  request: OutgoingRequest,
  check?: (ticket: TicketView) => void,
): Promise<SentOutgoing> {
  const { ticketId, quotedMsgId, ...rest } = request;
  if (!request.body.trim() && !request.media) throw new AppError('ERR_EMPTY_MESSAGE');
  const byClientId = async () => {
    if (!request.clientId) return undefined;
    const [row] = (await app.ds.query(
      'SELECT id FROM messages WHERE "companyId" = $1 AND "clientId" = $2',
      [companyId, request.clientId],
    )) as { id: number }[];
    return row && (await loadMessage(app.ds, companyId, row.id));
  };
  const known = await byClientId();
  if (known) return { message: known, duplicate: true, queued: false };
  const stored = await withChanges(app, companyId, async (tx, changes) => {
    if (!(await lockTicketForWrite(tx, companyId, ticketId)))
      throw new AppError('ERR_NO_TICKET_FOUND');
    const ticket = await loadTicket(tx, companyId, ticketId);
    check?.(ticket);
    if (ticket.whatsappId == null) throw new AppError('ERR_NO_WAPP_FOUND');
    const quoted = quotedMsgId ? await loadMessage(tx, companyId, quotedMsgId) : undefined;
    return storeOutgoing(tx, changes, { ...rest, companyId, ticket, ...(quoted && { quoted }) });
  });
  if (!stored) {
    // Lost a race with the same clientId: that request stored and sends it.
    const winner = await byClientId();
    if (!winner) throw new AppError('ERR_CREATING_MESSAGE');
    return { message: winner, duplicate: true, queued: false };
  }
  return { message: stored.message, duplicate: false, queued: await dispatchOutgoing(app, stored) };
}

/** A send that could not be queued or failed for good: `sendError` on the message. */
export async function markSendFailed(
  app: AppContext,
  companyId: number,
  messageId: number,
  error: string,
) {
  await withChanges(app, companyId, async (tx, changes) => {
    const [rows] = (await tx.query(
      `UPDATE messages SET "sendError" = $3, "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2 RETURNING id`,
      [messageId, companyId, error],
    )) as [{ id: number }[], number];
    if (!rows.length) return;
    const message = await loadMessage(tx, companyId, messageId);
    changes.push(
      messageChange(message, await loadTicket(tx, companyId, message.ticketId), 'update'),
    );
  });
}
