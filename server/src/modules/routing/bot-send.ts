// What the bot says and does to a ticket. Bot messages are stored like an agent's (fromMe, a
// WhatsApp id chosen before sending, a change-feed row) with no user and a `bot:` clientId:
// that marks them as the bot's and makes a repeated send (a timer fired twice) a no-op.
import { TicketTransitionError } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { lockTicketForWrite } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import { logger } from '../../logger.js';
import { mediaUrl, mimeOfExtension } from '../../whatsapp/media.js';
import { withChanges } from '../changes/index.js';
import { newWhatsappId, sendOutgoing, type OutgoingOrigin } from '../messages/index.js';
import {
  loadTicket,
  planTicketWrite,
  ticketChange,
  ticketEvents,
  ticketGone,
  writeTicket,
  type TicketView,
  type TicketWrite,
} from '../tickets/index.js';

export interface BotMedia {
  /** File name under the company's media folder. */
  mediaPath: string;
  mediaName: string | null;
}

/** The clientId prefix of every message the bot writes. */
export const BOT_CLIENT_PREFIX = 'bot:';

/** The platform's senders: the bot and the features that speak through it. */
export type BotOrigin = Extract<OutgoingOrigin, 'bot' | 'rating' | 'notice' | 'timer'>;

/**
 * Stores and sends a bot message on the ticket through the outgoing writer
 * (messages/outgoing.ts). `key` names the send (for example `timer:12`): the same key twice
 * stores and sends once. Empty text without media sends nothing, nor does a ticket without a
 * connection. Answers the stored message's id.
 */
export async function sendBotMessage(
  app: AppContext,
  companyId: number,
  ticketId: number,
  text: string,
  options: { media?: BotMedia | null; key?: string; origin?: BotOrigin } = {},
): Promise<number | undefined> {
  const body = text.trim();
  const media = options.media ?? undefined;
  if (!body && !media) return undefined;
  const clientId = `${BOT_CLIENT_PREFIX}${options.key ?? newWhatsappId()}`.slice(0, 64);
  try {
    const sent = await sendOutgoing(app, companyId, {
      ticketId,
      body,
      clientId,
      userId: null,
      origin: options.origin ?? 'bot',
      ...(media && {
        media: {
          path: `${companyId}/${media.mediaPath}`,
          url: mediaUrl(media.mediaPath),
          mimetype: mimeOfExtension(media.mediaPath.split('.').pop() ?? ''),
          ...(media.mediaName && { fileName: media.mediaName }),
        },
      }),
    });
    return sent.duplicate ? undefined : sent.message.id;
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_NO_WAPP_FOUND') return undefined;
    throw err;
  }
}

/**
 * A ticket write on the platform's behalf, through the ticket writer and the shared rule: the
 * ticket is locked and read, `decide` says what to do (undefined: nothing). A transition the rule
 * refuses (the ticket moved on meanwhile: an agent took it, it closed) changes nothing. Answers
 * the ticket before and after, or undefined when nothing was written.
 */
async function systemTicketWrite(
  app: AppContext,
  companyId: number,
  ticketId: number,
  decide: (ticket: TicketView) => Omit<TicketWrite, 'actorId'> | undefined,
  changesOf: (before: TicketView, after: TicketView) => ReturnType<typeof ticketChange>[],
): Promise<{ before: TicketView; after: TicketView } | undefined> {
  return withChanges(app, companyId, async (tx, changes) => {
    if (!(await lockTicketForWrite(tx, companyId, ticketId))) return undefined;
    const before = await loadTicket(tx, companyId, ticketId);
    const write = decide(before);
    if (!write) return undefined;
    let plan;
    try {
      plan = planTicketWrite(before, { ...write, actorId: null });
    } catch (err) {
      if (!(err instanceof TicketTransitionError)) throw err;
      logger.info({ ticketId, status: before.status, err: err.message }, 'system write skipped');
      return undefined;
    }
    const after = await writeTicket(tx, companyId, plan);
    changes.push(...changesOf(before, after));
    changes.events.push(...ticketEvents(before, after, 'system'));
    return { before, after };
  });
}

/** Viewers of the old queue lose the ticket; those of the new one get it. */
const queueMove = (before: TicketView, after: TicketView) => [
  ...(after.queueId !== before.queueId ? [ticketGone(after.id, before.queueId)] : []),
  ticketChange(after),
];

/**
 * The bot moves a waiting ticket nobody holds to a queue (or out of any, `null`), with the bot
 * flag as given (the shared rule's `route`).
 */
export async function setTicketQueue(
  app: AppContext,
  companyId: number,
  ticketId: number,
  queueId: number | null,
  chatbot: boolean,
): Promise<void> {
  await systemTicketWrite(
    app,
    companyId,
    ticketId,
    () => ({ command: { action: 'route', queueId }, flags: { chatbot } }),
    queueMove,
  );
}

/**
 * A system transfer (the waiting-ticket timer): the ticket goes to `queueId`, waiting, without
 * an agent and without the bot (the shared rule's `transfer` to a queue).
 */
export async function transferTicketBySystem(
  app: AppContext,
  companyId: number,
  ticketId: number,
  queueId: number,
): Promise<boolean> {
  const done = await systemTicketWrite(
    app,
    companyId,
    ticketId,
    () => ({ command: { action: 'transfer', queueId }, flags: { chatbot: false } }),
    queueMove,
  );
  return done !== undefined;
}

/**
 * Closes a ticket on the platform's behalf (rating answered, idle expiry, auto-close): the
 * shared rule's `finish` with no actor (the ticket keeps its user), the bot off. Only a ticket in
 * one of `from` statuses is closed; answers whether it was.
 */
export async function closeTicketBySystem(
  app: AppContext,
  companyId: number,
  ticketId: number,
  from: readonly ('open' | 'pending')[] = ['open', 'pending'],
): Promise<boolean> {
  const done = await systemTicketWrite(
    app,
    companyId,
    ticketId,
    (ticket) =>
      (from as readonly string[]).includes(ticket.status)
        ? { command: { action: 'finish' }, flags: { chatbot: false } }
        : undefined,
    (_before, after) => [ticketChange(after)],
  );
  return done !== undefined;
}
