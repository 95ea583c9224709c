// What the bot says and does to a ticket. Bot messages are stored like an agent's (fromMe, a
// WhatsApp id chosen before sending, a change-feed row) with no user and a `bot:` clientId:
// that marks them as the bot's and makes a repeated send (a timer fired twice) a no-op.
import type { AppContext } from '../../context.js';
import { logger } from '../../logger.js';
import type { OutboundContent } from '../../whatsapp/hooks.js';
import { mediaKindOf, mediaUrl, mimeOfExtension } from '../../whatsapp/media.js';
import { enqueueOutbound } from '../../whatsapp/outbound.js';
import { withChanges } from '../changes/index.js';
import { loadMessage, messageChange } from '../messages/index.js';
import { chatTarget, markSendFailed, newWhatsappId, outgoingStored } from '../messages/index.js';
import { loadTicket, ticketChange, ticketEvents, ticketGone } from '../tickets/index.js';

export interface BotMedia {
  /** File name under the company's media folder. */
  mediaPath: string;
  mediaName: string | null;
}

/** The clientId prefix of every message the bot writes. */
export const BOT_CLIENT_PREFIX = 'bot:';

/**
 * Stores and sends a bot message on the ticket. `key` names the send (for example
 * `timer:12`): the same key twice stores and sends once. Empty text without media sends nothing.
 */
export async function sendBotMessage(
  app: AppContext,
  companyId: number,
  ticketId: number,
  text: string,
  options: { media?: BotMedia | null; key?: string } = {},
): Promise<number | undefined> {
  const body = text.trim();
  const media = options.media ?? undefined;
  if (!body && !media) return undefined;
  const wid = newWhatsappId();
  const clientId = `${BOT_CLIENT_PREFIX}${options.key ?? wid}`.slice(0, 64);
  const mimetype = media ? mimeOfExtension(media.mediaPath.split('.').pop() ?? '') : '';
  const kind = media ? mediaKindOf(mimetype) : undefined;
  const sent = await withChanges(app, companyId, async (tx, changes) => {
    const ticket = await loadTicket(tx, companyId, ticketId);
    if (ticket.whatsappId == null) return undefined;
    const at = new Date();
    const [inserted] = (await tx.query(
      `INSERT INTO messages ("companyId", "whatsappId", "ticketId", "contactId", wid, "fromMe",
              body, ack, read, "mediaType", "mediaUrl", "clientId", "createdAt")
       VALUES ($1, $2, $3, $4, $5, true, $6, 0, true, $7, $8, $9, $10)
       ON CONFLICT ("companyId", "clientId") WHERE "clientId" IS NOT NULL DO NOTHING
       RETURNING id`,
      [
        companyId,
        ticket.whatsappId,
        ticket.id,
        ticket.contactId,
        wid,
        body,
        kind ? (kind === 'document' ? 'application' : kind) : 'chat',
        media ? mediaUrl(media.mediaPath) : null,
        clientId,
        at,
      ],
    )) as { id: number }[];
    if (!inserted) return undefined;
    await tx.query(
      `UPDATE tickets SET "lastMessage" = $2, "lastMessageAt" = GREATEST("lastMessageAt", $3),
              "updatedAt" = now() WHERE id = $1`,
      [ticket.id, body || media?.mediaName || '', at],
    );
    const message = await loadMessage(tx, companyId, inserted.id);
    const updated = await loadTicket(tx, companyId, ticket.id);
    changes.push(ticketChange(updated), messageChange(message, updated, 'create'));
    changes.events.push(outgoingStored(message, 'bot'));
    const [contact] = (await tx.query('SELECT number, lid, "isGroup" FROM contacts WHERE id = $1', [
      ticket.contactId,
    ])) as { number: string; lid: string | null; isGroup: boolean }[];
    return { id: message.id, whatsappId: ticket.whatsappId, to: chatTarget(contact!) };
  });
  if (!sent) return undefined;
  const content: OutboundContent = media
    ? {
        kind: 'media',
        path: `${companyId}/${media.mediaPath}`,
        mimetype,
        ...(media.mediaName && { fileName: media.mediaName }),
        ...(body && { caption: body }),
      }
    : { kind: 'text', body };
  try {
    await enqueueOutbound(app, {
      companyId,
      whatsappId: sent.whatsappId,
      to: sent.to,
      content,
      waMessageId: wid,
      messageId: sent.id,
    });
  } catch (err) {
    logger.error({ err, messageId: sent.id }, 'bot message not queued');
    await markSendFailed(app, companyId, sent.id, 'ERR_SENDING_WAPP_MSG');
  }
  return sent.id;
}

/**
 * Moves a ticket without an agent to a queue (or out of any, `null`), pending, with the bot
 * flag as given. Viewers of the old queue lose it; those of the new one get it.
 */
export async function setTicketQueue(
  app: AppContext,
  companyId: number,
  ticketId: number,
  queueId: number | null,
  chatbot: boolean,
): Promise<void> {
  await withChanges(app, companyId, async (tx, changes) => {
    const before = await loadTicket(tx, companyId, ticketId);
    await tx.query(
      `UPDATE tickets SET "queueId" = $3, chatbot = $4, "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2`,
      [ticketId, companyId, queueId, chatbot],
    );
    const after = await loadTicket(tx, companyId, ticketId);
    if (after.queueId !== before.queueId) changes.push(ticketGone(ticketId, before.queueId));
    changes.push(ticketChange(after));
    changes.events.push(...ticketEvents(before, after, 'system'));
  });
}

/**
 * Closes a ticket on the platform's behalf (rating answered, idle expiry, auto-close). Only a
 * ticket in one of `from` statuses is closed; answers whether it was.
 */
export async function closeTicketBySystem(
  app: AppContext,
  companyId: number,
  ticketId: number,
  from: readonly ('open' | 'pending')[] = ['open', 'pending'],
): Promise<boolean> {
  return withChanges(app, companyId, async (tx, changes) => {
    const [rows] = (await tx.query(
      `UPDATE tickets SET status = 'closed', "closedAt" = now(), chatbot = false, "unreadMessages" = 0,
              "useIntegration" = false, "promptId" = NULL, "integrationId" = NULL,
              "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2 AND status = ANY($3::text[]) RETURNING id`,
      [ticketId, companyId, from],
    )) as [{ id: number }[], number];
    if (!rows.length) return false;
    changes.push(ticketChange(await loadTicket(tx, companyId, ticketId)));
    changes.events.push({ type: 'ticket.closed', payload: { ticketId, by: 'system' } });
    return true;
  });
}
