import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { lockTicketForWrite } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import { logger } from '../../logger.js';
import type { OutboundContent, OutboundJob } from '../../whatsapp/hooks.js';
import { mediaKindOf } from '../../whatsapp/media.js';
import { enqueueOutbound } from '../../whatsapp/outbound.js';
import type { MessageRef } from '../../whatsapp/port.js';
import { withChanges } from '../changes/index.js';
import { loadTicket, ticketChange, type TicketView } from '../tickets/index.js';
import { outgoingStored } from './inbound-events.js';
import { assertCanOpen, type Viewer } from '../tickets/index.js';
import { loadMessage, messageChange, type MessageView } from './messages.queries.js';

/** A WhatsApp id as Baileys makes them: '3EB0' and 18 uppercase hex characters. */
export const newWhatsappId = () => `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;

export interface OutgoingMedia {
  path: string;
  url: string;
  mimetype: string;
  fileName?: string;
  /** Recorded in the app: WhatsApp gets it as a voice note. */
  voiceNote?: boolean;
}

export interface SendRequest {
  ticketId: number;
  body: string;
  quotedMsgId?: number;
  clientId?: string;
  media?: OutgoingMedia;
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

async function contactOf(tx: EntityManager, ticket: TicketView): Promise<ChatRow> {
  const [row] = (await tx.query('SELECT number, lid, "isGroup" FROM contacts WHERE id = $1', [
    ticket.contactId,
  ])) as ChatRow[];
  return row!;
}

export async function refOf(
  app: AppContext,
  companyId: number,
  messageId: number,
): Promise<MessageRef> {
  const [row] = (await app.ds.query(
    `SELECT m.wid, m."fromMe", c.number, c.lid, c."isGroup" FROM messages m
       JOIN contacts c ON c.id = m."contactId" WHERE m.id = $1 AND m."companyId" = $2`,
    [messageId, companyId],
  )) as (ChatRow & { wid: string; fromMe: boolean })[];
  if (!row) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const chat = chatTarget(row);
  return {
    chatId: chat.includes('@') ? chat : `${chat}@s.whatsapp.net`,
    id: row.wid,
    fromMe: row.fromMe,
  };
}

/**
 * Writes an agent's message (its WhatsApp id chosen here, so the provider's echo dedupes
 * against it) and queues the send. The same `clientId` again answers the stored message and
 * sends nothing.
 */
export async function sendMessage(
  app: AppContext,
  viewer: Viewer,
  request: SendRequest,
): Promise<{ message: MessageView; duplicate: boolean }> {
  const companyId = viewer.companyId;
  const body = request.body.trim();
  if (!body && !request.media) throw new AppError('ERR_EMPTY_MESSAGE');
  const byClientId = async (db: AppContext['ds'] | EntityManager) => {
    if (!request.clientId) return undefined;
    const [row] = (await db.query(
      'SELECT id FROM messages WHERE "companyId" = $1 AND "clientId" = $2',
      [companyId, request.clientId],
    )) as { id: number }[];
    return row && (await loadMessage(db, companyId, row.id));
  };
  const known = await byClientId(app.ds);
  if (known) return { message: known, duplicate: true };

  const wid = newWhatsappId();
  let job: OutboundJob | undefined;
  const message = await withChanges(app, companyId, async (tx, changes) => {
    job = undefined;
    if (!(await lockTicketForWrite(tx, companyId, request.ticketId)))
      throw new AppError('ERR_NO_TICKET_FOUND');
    const ticket = await loadTicket(tx, companyId, request.ticketId);
    assertCanOpen(viewer, ticket);
    if (ticket.whatsappId == null) throw new AppError('ERR_NO_WAPP_FOUND');
    let quoted: MessageView | undefined;
    if (request.quotedMsgId) quoted = await loadMessage(tx, companyId, request.quotedMsgId);
    const at = new Date();
    const [inserted] = (await tx.query(
      `INSERT INTO messages ("companyId", "whatsappId", "ticketId", "contactId", wid, "fromMe", body,
              ack, read, "mediaType", "mediaUrl", "quotedMsgId", "quotedWid", "clientId", "userId", "createdAt",
              "mediaRef")
       VALUES ($1, $2, $3, $4, $5, true, $6, 0, true, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT ("companyId", "clientId") WHERE "clientId" IS NOT NULL DO NOTHING RETURNING id`,
      [
        companyId,
        ticket.whatsappId,
        ticket.id,
        ticket.contactId,
        wid,
        body,
        request.media ? storedType(request.media.mimetype) : 'chat',
        request.media?.url ?? null,
        quoted?.id ?? null,
        quoted?.wid ?? null,
        request.clientId ?? null,
        viewer.id,
        at,
        // The upload's own name, for file bubbles (the stored file has a random name).
        request.media?.fileName ? JSON.stringify({ fileName: request.media.fileName }) : null,
      ],
    )) as { id: number }[];
    if (!inserted) return undefined;
    await tx.query(
      `UPDATE tickets SET "lastMessage" = $2, "lastMessageAt" = GREATEST("lastMessageAt", $3),
              "updatedAt" = now() WHERE id = $1`,
      [ticket.id, body, at],
    );
    const stored = await loadMessage(tx, companyId, inserted.id);
    const updated = await loadTicket(tx, companyId, ticket.id);
    changes.push(ticketChange(updated), messageChange(stored, updated, 'create'));
    changes.events.push(outgoingStored(stored, 'agent'));
    const contact = await contactOf(tx, ticket);
    const to = chatTarget(contact);
    const content: OutboundContent = request.media
      ? {
          kind: 'media',
          path: request.media.path,
          mimetype: request.media.mimetype,
          fileName: request.media.fileName,
          caption: body || undefined,
          ...(request.media.voiceNote && { voiceNote: true }),
        }
      : { kind: 'text', body };
    job = {
      companyId,
      whatsappId: ticket.whatsappId,
      to,
      content,
      waMessageId: wid,
      messageId: stored.id,
      ...(quoted && {
        quoted: {
          chatId: to.includes('@') ? to : `${to}@s.whatsapp.net`,
          id: quoted.wid,
          fromMe: quoted.fromMe,
        },
      }),
    };
    return stored;
  });
  if (!message) {
    // Lost a race with the same clientId: that request stored and sends it.
    const winner = await byClientId(app.ds);
    if (!winner) throw new AppError('ERR_CREATING_MESSAGE');
    return { message: winner, duplicate: true };
  }
  try {
    await enqueueOutbound(app, job!);
  } catch (err) {
    logger.error({ err, messageId: message.id }, 'outbound not queued');
    await markSendFailed(app, companyId, message.id, 'ERR_SENDING_WAPP_MSG');
    throw new AppError('ERR_SENDING_WAPP_MSG');
  }
  return { message, duplicate: false };
}

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

/** Queues a job that acts on an existing message (edit, delete, mark read); failures are logged. */
export async function enqueueAction(app: AppContext, job: OutboundJob): Promise<void> {
  await enqueueOutbound(app, job).catch((err: unknown) => {
    logger.error({ err, whatsappId: job.whatsappId }, 'outbound action not queued');
    throw new AppError('ERR_SENDING_WAPP_MSG');
  });
}
