// The one writer of the `tickets` row after its creation (issue 12 item 5). A test
// (server/test/one-writer.test.ts) fails when ticket rows are updated anywhere else.
//
// - Transitions (status, owner, queue, connection, the bot and integration flags) go through
//   `planTicketWrite` (the shared rule `ticketUpdateFor`, shared/src/domain/tickets.ts) and then
//   `writeTicket`: agents' actions, system closes and transfers, the bot's queue moves alike.
// - The other writes here move no status, owner or queue: the message counters (preview, its
//   time, unread), and a contact merge re-pointing tickets.
//
// Callers hold the ticket's lock (`lockTicketForWrite`) and push the change-feed rows themselves.
import { ticketUpdateFor, type TicketCommand, type TicketStatus } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import { loadTicket, type TicketView } from './tickets.queries.js';

/** Ticket fields outside the transition rule, set as they are given. */
export type TicketFlags = Partial<
  Pick<TicketView, 'useIntegration' | 'promptId' | 'integrationId' | 'chatbot'>
>;

export interface TicketWrite {
  /** The transition, checked by the shared rule. Without one only `flags` change. */
  command?: TicketCommand;
  /** The user acting, or `null` for the platform (bot, timers, rating). */
  actorId: number | null;
  flags?: TicketFlags;
}

/** The columns a transition writes. */
export interface TicketNext {
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  chatbot: boolean;
}

declare const planned: unique symbol;

/** A write the rule allowed; only `planTicketWrite` makes one. */
export interface TicketPlan {
  readonly before: TicketView;
  readonly next: TicketNext;
  readonly command: TicketCommand | undefined;
  readonly [planned]: true;
}

/**
 * What `write` makes of `before`: the rule's update, then the flags. Throws the shared
 * `TicketTransitionError` when the rule refuses (callers answer or skip it).
 */
export function planTicketWrite(before: TicketView, write: TicketWrite): TicketPlan {
  const update = write.command ? ticketUpdateFor(before, write.command, write.actorId) : {};
  const flags = Object.fromEntries(
    Object.entries(write.flags ?? {}).filter(([, value]) => value !== undefined),
  ) as TicketFlags;
  const { status, userId, queueId, whatsappId, useIntegration, promptId, integrationId, chatbot } =
    { ...before, ...update, ...flags };
  const next = {
    status,
    userId,
    queueId,
    whatsappId,
    useIntegration,
    promptId,
    integrationId,
    chatbot,
  };
  return { before, next, command: write.command } as TicketPlan;
}

/**
 * Writes a planned transition and answers the ticket as it is now. `acceptedAt` is set the first
 * time the ticket opens; `closedAt` follows the status; closing clears the unread count.
 */
export async function writeTicket(
  tx: EntityManager,
  companyId: number,
  plan: TicketPlan,
): Promise<TicketView> {
  const { before, next } = plan;
  await tx.query(
    `UPDATE tickets SET status = $3::varchar, "userId" = $4, "queueId" = $5, "whatsappId" = $6,
            "useIntegration" = $7, "promptId" = $8, "integrationId" = $9, chatbot = $10,
            "acceptedAt" = CASE WHEN $3::varchar = 'open' THEN COALESCE("acceptedAt", now()) ELSE "acceptedAt" END,
            "closedAt" = CASE WHEN $3::varchar = 'closed' THEN now() ELSE NULL END,
            "unreadMessages" = CASE WHEN $3::varchar = 'closed' THEN 0 ELSE "unreadMessages" END,
            "updatedAt" = now()
      WHERE id = $1 AND "companyId" = $2`,
    [
      before.id,
      companyId,
      next.status,
      next.userId,
      next.queueId,
      next.whatsappId,
      next.useIntegration,
      next.promptId,
      next.integrationId,
      next.chatbot,
    ],
  );
  return loadTicket(tx, companyId, before.id);
}

// ---- Counters and moves (no status, owner or queue changes) ----

/**
 * The ticket counters one inbound message moves, as an `UPDATE ... RETURNING *` for the inbound
 * pipeline to wrap in its view. The values are SQL expressions: placeholders (`$1`) or literals
 * escaped by the driver (messages/inbound-fast.ts). Out-of-order arrivals keep the newest text
 * as the preview; a closed ticket keeps no unread count.
 */
export const inboundCountersSql = (v: {
  ticket: string;
  at: string;
  body: string;
  unread: string;
}): string => `UPDATE tickets SET
    "lastMessage" = CASE WHEN "lastMessageAt" IS NULL OR ${v.at} >= "lastMessageAt" THEN ${v.body} ELSE "lastMessage" END,
    "lastMessageAt" = GREATEST("lastMessageAt", ${v.at}),
    "unreadMessages" = CASE WHEN status = 'closed' THEN 0 ELSE "unreadMessages" + ${v.unread} END,
    "updatedAt" = now()
  WHERE id = ${v.ticket} RETURNING *`;

/** A ciphertext stub got its text: the preview follows while that message is the newest. */
export async function upgradeInboundPreview(
  tx: EntityManager,
  ticketId: number,
  text: string,
  at: Date,
): Promise<void> {
  await tx.query(`UPDATE tickets SET "lastMessage" = $2 WHERE id = $1 AND "lastMessageAt" = $3`, [
    ticketId,
    text,
    at,
  ]);
}

/** An outgoing message: its preview and time (the time never moves back). Unread is unchanged. */
export async function touchForOutgoing(
  tx: EntityManager,
  ticketId: number,
  preview: string,
  at: Date,
): Promise<void> {
  await tx.query(
    `UPDATE tickets SET "lastMessage" = $2, "lastMessageAt" = GREATEST("lastMessageAt", $3),
            "updatedAt" = now() WHERE id = $1`,
    [ticketId, preview, at],
  );
}

/** The message shown as the preview was edited: the preview shows the new text. */
export async function setPreview(tx: EntityManager, ticketId: number, text: string): Promise<void> {
  await tx.query('UPDATE tickets SET "lastMessage" = $2 WHERE id = $1', [ticketId, text]);
}

/** The ticket was read: no unread messages left. */
export async function clearUnread(tx: EntityManager, ticketId: number): Promise<void> {
  await tx.query('UPDATE tickets SET "unreadMessages" = 0 WHERE id = $1', [ticketId]);
}

/** `targetId` takes the preview of `fromId`, whose messages moved into it (after a rating). */
export async function takePreviewOf(
  tx: EntityManager,
  targetId: number,
  fromId: number,
): Promise<void> {
  await tx.query(
    `UPDATE tickets t SET "lastMessage" = n."lastMessage", "lastMessageAt" = n."lastMessageAt",
            "updatedAt" = now()
       FROM tickets n WHERE t.id = $1 AND n.id = $2`,
    [targetId, fromId],
  );
}

/** A contact merge: every ticket of contact `fromId` now belongs to contact `intoId`. */
export async function moveTicketsToContact(
  tx: EntityManager,
  fromId: number,
  intoId: number,
): Promise<void> {
  await tx.query('UPDATE tickets SET "contactId" = $2 WHERE "contactId" = $1', [fromId, intoId]);
}
