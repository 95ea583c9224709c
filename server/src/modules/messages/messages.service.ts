import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { logger } from '../../logger.js';
import type { OutboundJob } from '../../whatsapp/hooks.js';
import { enqueueOutbound } from '../../whatsapp/outbound.js';
import type { MessageRef } from '../../whatsapp/port.js';
import { assertCanOpen, type Viewer } from '../tickets/index.js';
import type { MessageView } from './messages.queries.js';
import { chatTarget, sendOutgoing, type OutgoingMedia, type OutgoingOrigin } from './outgoing.js';

// The outgoing writer's names, where their callers have always found them.
export { chatTarget, markSendFailed, newWhatsappId, type OutgoingMedia } from './outgoing.js';

export interface SendRequest {
  ticketId: number;
  body: string;
  quotedMsgId?: number;
  clientId?: string;
  media?: OutgoingMedia;
  /** 'agent' (the default) or 'greeting' (sent for the agent on accept). */
  origin?: Extract<OutgoingOrigin, 'agent' | 'greeting'>;
}

interface ChatRow {
  number: string;
  lid: string | null;
  isGroup: boolean;
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
 * An agent's message, through the outgoing writer (outgoing.ts) on the agent lane. The same
 * `clientId` again answers the stored message and sends nothing.
 */
export async function sendMessage(
  app: AppContext,
  viewer: Viewer,
  request: SendRequest,
): Promise<{ message: MessageView; duplicate: boolean }> {
  const { message, duplicate, queued } = await sendOutgoing(
    app,
    viewer.companyId,
    {
      ticketId: request.ticketId,
      body: request.body,
      ...(request.quotedMsgId && { quotedMsgId: request.quotedMsgId }),
      ...(request.clientId && { clientId: request.clientId }),
      ...(request.media && { media: request.media }),
      userId: viewer.id,
      origin: request.origin ?? 'agent',
    },
    (ticket) => assertCanOpen(viewer, ticket),
  );
  if (!duplicate && !queued) throw new AppError('ERR_SENDING_WAPP_MSG');
  return { message, duplicate };
}

/** Queues a job that acts on an existing message (edit, delete, mark read); failures are logged. */
export async function enqueueAction(app: AppContext, job: OutboundJob): Promise<void> {
  await enqueueOutbound(app, job).catch((err: unknown) => {
    logger.error({ err, whatsappId: job.whatsappId }, 'outbound action not queued');
    throw new AppError('ERR_SENDING_WAPP_MSG');
  });
}
