// What an integration does to a ticket: its replies (through the one outgoing writer, on the
// agent lane, keyed so a repeated step never sends twice, spaced by the Typebot delays through a
// durable job) and its hand-offs (to a queue, closed, or left waiting in its queue for an agent).
import { z } from 'zod';
import type { WebhookReply } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import {
  defineDurableJob,
  scheduleDurable,
  startDurableJobs,
  type DurableJob,
  type Firing,
} from '../../jobs/durable.js';
import { logger } from '../../logger.js';
import { withChanges } from '../changes/index.js';
import { sendOutgoing } from '../messages/index.js';
import { closeTicketBySystem, setTicketQueue, transferTicketBySystem } from '../routing/index.js';
import { loadTicket, ticketChange, type TicketView } from '../tickets/index.js';
import type { QueueIntegration } from './integration.entity.js';

/** How a conversation leaves the integration. */
export type Leave =
  | { type: 'queue' }
  | { type: 'transfer'; queueId: number }
  | { type: 'close' }
  | { type: 'tag'; tagId: number };

/** The ticket left the bot: an agent holds it or it is no longer waiting. */
class TicketTaken extends Error {}
const stillWaiting = (ticket: TicketView) => {
  if (ticket.userId != null || ticket.status !== 'pending') throw new TicketTaken();
};

/**
 * One bot reply through the outgoing writer. `key` names it (the same key never sends twice).
 * Answers false when the ticket is no longer the bot's (an agent took it).
 */
export async function sendReply(
  app: AppContext,
  companyId: number,
  ticketId: number,
  key: string,
  body: string,
): Promise<boolean> {
  if (!body.trim()) return true;
  try {
    await sendOutgoing(
      app,
      companyId,
      {
        ticketId,
        body,
        clientId: `integ:${key}`.slice(0, 64),
        userId: null,
        origin: 'integration',
      },
      stillWaiting,
    );
    return true;
  } catch (err) {
    if (err instanceof TicketTaken) return false;
    if (err instanceof AppError && err.code === 'ERR_NO_WAPP_FOUND') return false;
    throw err;
  }
}

/** Records that the integration let go of the ticket (the next messages go to agents). */
export async function markHandedOff(
  app: AppContext,
  companyId: number,
  ticketId: number,
  integrationId: number,
  reason: string,
): Promise<void> {
  await app.ds.query(
    `INSERT INTO integration_sessions ("ticketId", "integrationId", "companyId", "handedOffAt",
            "handOffReason")
     VALUES ($1, $2, $3, now(), $4)
     ON CONFLICT ("ticketId", "integrationId") DO UPDATE
       SET "handedOffAt" = COALESCE(integration_sessions."handedOffAt", now()),
           "handOffReason" = COALESCE(integration_sessions."handOffReason", EXCLUDED."handOffReason"),
           state = NULL, "updatedAt" = now()`,
    [ticketId, integrationId, companyId, reason],
  );
}

/** A queue of the company, or null (a reply naming another company's queue is ignored). */
async function ownQueue(app: AppContext, companyId: number, queueId: number): Promise<boolean> {
  const rows = (await app.ds.query('SELECT 1 FROM queues WHERE id = $1 AND "companyId" = $2', [
    queueId,
    companyId,
  ])) as unknown[];
  return rows.length > 0;
}

/** Applies a hand-off or action to the ticket (what the rule refuses changes nothing). */
export async function leave(
  app: AppContext,
  companyId: number,
  ticketId: number,
  action: Leave,
): Promise<void> {
  switch (action.type) {
    case 'queue': {
      // The conversation stays in its queue, waiting for an agent, without the bot.
      const [row] = (await app.ds.query(
        'SELECT "queueId", status, "userId" FROM tickets WHERE id = $1 AND "companyId" = $2',
        [ticketId, companyId],
      )) as { queueId: number | null; status: string; userId: number | null }[];
      if (row && row.status === 'pending' && row.userId == null)
        await setTicketQueue(app, companyId, ticketId, row.queueId, false);
      return;
    }
    case 'transfer':
      if (await ownQueue(app, companyId, action.queueId))
        await transferTicketBySystem(app, companyId, ticketId, action.queueId);
      else logger.warn({ ticketId, queueId: action.queueId }, 'integration named an unknown queue');
      return;
    case 'close':
      await closeTicketBySystem(app, companyId, ticketId, ['pending']);
      return;
    case 'tag':
      await withChanges(app, companyId, async (tx, changes) => {
        const inserted = (await tx.query(
          `INSERT INTO ticket_tags ("ticketId", "tagId")
           SELECT t.id, g.id FROM tickets t JOIN tags g ON g."companyId" = t."companyId"
            WHERE t.id = $1 AND t."companyId" = $2 AND g.id = $3
              AND NOT EXISTS (SELECT 1 FROM ticket_tags x WHERE x."ticketId" = t.id AND x."tagId" = g.id)
           RETURNING "ticketId"`,
          [ticketId, companyId, action.tagId],
        )) as unknown[];
        if (inserted.length) changes.push(ticketChange(await loadTicket(tx, companyId, ticketId)));
      });
      return;
  }
}

// ---------------------------------------------------------------- replies in order, with pauses

const replyItem = z.object({ text: z.string(), delayMs: z.number().int().min(0) });
const leaveSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('queue') }),
  z.object({ type: z.literal('transfer'), queueId: z.number().int().positive() }),
  z.object({ type: z.literal('close') }),
  z.object({ type: z.literal('tag'), tagId: z.number().int().positive() }),
]);
const replyPayload = z.object({
  ticketId: z.number().int(),
  integrationId: z.number().int(),
  /** The customer's message these replies answer (their keys). */
  key: z.string(),
  items: z.array(replyItem),
  /** The next item to send. */
  index: z.number().int().min(0),
  /** Applied after the last item. */
  then: z.array(leaveSchema),
});
export type ReplyPlan = z.infer<typeof replyPayload>;

let replyClock: () => Date = () => new Date();
export const setReplyClock = (next: (() => Date) | null) => {
  replyClock = next ?? (() => new Date());
};

/**
 * One step of a turn: sends item `index`, then moves itself to the next item's time (its
 * `delayMs` later), or applies the hand-off after the last one. Each send is keyed, so a step
 * that runs twice (a crash after sending) sends once.
 */
export const integrationReplyJob = defineDurableJob({
  kind: 'integration-reply',
  payload: replyPayload,
  now: () => replyClock(),
  run: (app, firing) => replyStep(app, firing),
});

export const startReplies = (app: AppContext) =>
  startDurableJobs(app, [integrationReplyJob as DurableJob<unknown>]);

async function replyStep(
  app: AppContext,
  firing: Firing<ReplyPlan>,
): Promise<void | { rescheduleAt: Date }> {
  const plan = firing.payload;
  const companyId = firing.companyId!;
  let index = plan.index;
  // Items due now go out together (no pause between them); the first with a pause waits.
  while (index < plan.items.length) {
    const item = plan.items[index]!;
    if (index > plan.index && item.delayMs > 0) break;
    const sent = await sendReply(app, companyId, plan.ticketId, `${plan.key}:${index}`, item.text);
    if (!sent) return; // an agent took the ticket: the bot says nothing more
    index += 1;
  }
  if (index < plan.items.length) {
    await firing.tx.query('UPDATE durable_jobs SET payload = $2 WHERE id = $1', [
      firing.id,
      JSON.stringify({ ...plan, index }),
    ]);
    return { rescheduleAt: new Date(replyClock().getTime() + plan.items[index]!.delayMs) };
  }
  for (const action of plan.then) await leave(app, companyId, plan.ticketId, action);
}

/** Schedules a turn's replies and hand-off; the first item goes out at once. */
export async function scheduleReplies(
  app: AppContext,
  integration: QueueIntegration,
  ticketId: number,
  key: string,
  items: { text: string; delayMs: number }[],
  then: Leave[],
): Promise<void> {
  if (items.length === 0 && then.length === 0) return;
  await scheduleDurable(app, integrationReplyJob, {
    key: `reply:${ticketId}:${key}`,
    companyId: integration.companyId,
    dueAt: replyClock(),
    payload: { ticketId, integrationId: integration.id, key, items, index: 0, then },
  });
}

/** A synchronous webhook reply: its messages in order, then its actions. */
export async function applyReply(
  app: AppContext,
  integration: QueueIntegration,
  ticketId: number,
  deliveryId: string,
  reply: WebhookReply,
): Promise<void> {
  const items = reply.messages.map((m) => ({
    text: [m.body, m.mediaUrl].filter(Boolean).join('\n'),
    delayMs: 0,
  }));
  const then: Leave[] = reply.actions.map((a) =>
    a.type === 'transfer'
      ? { type: 'transfer', queueId: a.queueId }
      : a.type === 'close'
        ? { type: 'close' }
        : { type: 'tag', tagId: a.tagId },
  );
  if (then.some((a) => a.type === 'transfer' || a.type === 'close'))
    await markHandedOff(app, integration.companyId, ticketId, integration.id, 'reply');
  await scheduleReplies(app, integration, ticketId, `wh:${deliveryId}`, items, then);
}
