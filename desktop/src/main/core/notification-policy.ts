import type { EntityData, Op } from './types.js';
import type { AppliedSource } from './sync-engine.js';

export interface NotifyContext {
  userId: number;
  /** The agent's queues; a pending ticket of another queue is not theirs to pick up. */
  queueIds: readonly number[];
  windowFocused: boolean;
  /** The ticket open on screen, if any. */
  viewingTicketId: number | null;
  muted: boolean;
  /** Whether group conversations notify (a per-agent preference). */
  groups: boolean;
}

export interface NotificationPlan {
  ticketId: number;
  title: string;
  body: string;
  /** One notification per ticket: a newer one replaces the older. */
  tag: string;
  /** Set on a catch-up summary: how many tickets have news (the shell words the text). */
  summaryOf?: number;
}

export const NOTIFICATION_BODY_MAX = 100;
/** Past this many tickets in one catch-up, one summary replaces the individual notifications. */
export const CATCH_UP_LIMIT = 3;

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Whether this ticket's news concerns the agent: theirs, or waiting in one of their queues. */
export function concernsAgent(ticket: EntityData, ctx: NotifyContext): boolean {
  if (ticket.userId === ctx.userId) return true;
  if (ticket.status !== 'pending' || ticket.userId != null) return false;
  const queueId = ticket.queueId;
  return queueId == null || (typeof queueId === 'number' && ctx.queueIds.includes(queueId));
}

/** Whether a new message should raise a notification for this agent. */
export function shouldNotify(message: EntityData, ticket: EntityData, ctx: NotifyContext): boolean {
  if (ctx.muted || message.fromMe === true || message.isDeleted === true) return false;
  if (ticket.isGroup === true && !ctx.groups) return false;
  if (ctx.windowFocused && ctx.viewingTicketId === ticket.id) return false;
  return concernsAgent(ticket, ctx);
}

function describe(message: EntityData): string {
  const body = typeof message.body === 'string' ? message.body.trim() : '';
  if (body) return truncate(body, NOTIFICATION_BODY_MAX);
  return typeof message.mediaType === 'string' ? `[${message.mediaType}]` : '';
}

function titleOf(ticket: EntityData): string {
  const contact = ticket.contact as { name?: unknown } | undefined;
  return typeof contact?.name === 'string' && contact.name ? contact.name : `#${ticket.id}`;
}

/**
 * The notifications a batch of applied changes calls for: one per ticket (its latest message),
 * none after a full resync, and one summary when a catch-up brings news on many tickets.
 */
export function planNotifications(
  ops: readonly Op[],
  source: AppliedSource,
  lookupTicket: (id: number) => EntityData | null,
  ctx: NotifyContext,
): NotificationPlan[] {
  if (source === 'reset') return [];
  const latest = new Map<number, NotificationPlan>();
  for (const op of ops) {
    // A message the agent already read (an edit, an ack) is no news.
    if (op.entity !== 'message' || op.op !== 'upsert' || op.data.read === true) continue;
    const ticketId = op.data.ticketId;
    if (typeof ticketId !== 'number') continue;
    const ticket = lookupTicket(ticketId);
    if (!ticket || !shouldNotify(op.data, ticket, ctx)) continue;
    latest.delete(ticketId);
    latest.set(ticketId, {
      ticketId,
      title: titleOf(ticket),
      body: describe(op.data),
      tag: `ticket-${ticketId}`,
    });
  }
  const plans = [...latest.values()];
  if (source === 'pull' && plans.length > CATCH_UP_LIMIT) {
    const last = plans[plans.length - 1]!;
    return [{ ...last, tag: 'catch-up', summaryOf: plans.length }];
  }
  return plans;
}

/** The tray count: unread messages on tickets that concern the agent. */
export function unreadCount(tickets: Iterable<EntityData>, ctx: NotifyContext): number {
  let total = 0;
  for (const ticket of tickets) {
    const unread = ticket.unreadMessages;
    if (typeof unread === 'number' && unread > 0 && concernsAgent(ticket, ctx)) total += unread;
  }
  return total;
}
