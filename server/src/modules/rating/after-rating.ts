// A customer who answers the rating often adds 'obrigado' a moment later. That message must not
// open a new pending ticket (and the bot menu): within a short grace period after a ticket was
// closed by its rating, what the customer writes joins that closed ticket.
import type { AppContext } from '../../context.js';
import type { Change } from '../changes/index.js';
import { withChanges } from '../changes/index.js';
import { loadMessages, messageChange } from '../messages/index.js';
import type { RoutingContext } from '../routing/index.js';
import { loadTicket, takePreviewOf, ticketChange, ticketGone } from '../tickets/index.js';

/** How long after the rating closed a ticket the customer's messages still belong to it. */
export const AFTER_RATING_GRACE_MS = 5 * 60_000;

/**
 * The closed ticket of this contact on this connection that its rating closed less than the
 * grace period before `at`, if any.
 */
async function ratedTicketWithinGrace(
  app: AppContext,
  ctx: RoutingContext,
  at: Date,
): Promise<number | undefined> {
  const { ticket } = ctx;
  const [row] = (await app.ds.query(
    `SELECT t.id FROM tickets t JOIN ticket_bot_state b ON b."ticketId" = t.id
      WHERE t."companyId" = $1 AND t."contactId" = $2 AND t."whatsappId" = $3
        AND t.status = 'closed' AND t.id <> $4 AND t."closedAt" > $5::timestamptz - $6 * interval '1 millisecond'
        AND t."closedAt" <= $5::timestamptz
        AND (EXISTS (SELECT 1 FROM user_ratings r WHERE r."ticketId" = t.id) OR b."ratingAsks" > 0)
      ORDER BY t."closedAt" DESC LIMIT 1`,
    [ctx.companyId, ticket.contactId, ticket.whatsappId, ticket.id, at, AFTER_RATING_GRACE_MS],
  )) as { id: number }[];
  return row?.id;
}

/**
 * First routing rule: a message that opened a new ticket right after the contact's rating closed
 * the previous one moves to that closed ticket, and the new ticket goes away (lists get a
 * `delete`). The bot stays quiet.
 */
export async function afterRatingRule(ctx: RoutingContext): Promise<'done' | 'next'> {
  const { app, companyId, stored } = ctx;
  if (!stored.ticketCreated || ctx.ticket.isGroup || ctx.ticket.whatsappId == null) return 'next';
  const target = await ratedTicketWithinGrace(app, ctx, new Date(stored.message.createdAt));
  if (target === undefined) return 'next';
  const newId = ctx.ticket.id;
  const moved = await withChanges(app, companyId, async (tx, changes: Change[]) => {
    const [fresh] = (await tx.query(
      `SELECT id, "queueId" FROM tickets WHERE id = $1 AND "companyId" = $2 AND status = 'pending'
          AND "userId" IS NULL FOR UPDATE`,
      [newId, companyId],
    )) as { id: number; queueId: number | null }[];
    if (!fresh) return false;
    // Only the customer has written there: nobody answered, no bot message went out yet.
    const [mine] = (await tx.query(
      'SELECT 1 FROM messages WHERE "ticketId" = $1 AND "fromMe" LIMIT 1',
      [newId],
    )) as unknown[];
    if (mine) return false;
    const ids = (
      (await tx.query(
        `UPDATE messages SET "ticketId" = $2 WHERE "ticketId" = $1 AND "companyId" = $3
          RETURNING id`,
        [newId, target, companyId],
      )) as [{ id: number }[], number]
    )[0].map((r) => r.id);
    await takePreviewOf(tx, target, newId);
    await tx.query('DELETE FROM tickets WHERE id = $1 AND "companyId" = $2', [newId, companyId]);
    changes.push(ticketGone(newId, fresh.queueId));
    const closed = await loadTicket(tx, companyId, target);
    changes.push(ticketChange(closed));
    for (const message of await loadMessages(tx, companyId, ids))
      changes.push(messageChange(message, closed, 'update'));
    return true;
  });
  // When another message got there first (or the ticket moved on), nothing changed: it is done
  // either way, a vanished ticket has nothing left to route.
  return moved || (await ticketExists(app, companyId, newId)) === false ? 'done' : 'next';
}

async function ticketExists(app: AppContext, companyId: number, id: number): Promise<boolean> {
  const rows = (await app.ds.query('SELECT 1 FROM tickets WHERE id = $1 AND "companyId" = $2', [
    id,
    companyId,
  ])) as unknown[];
  return rows.length > 0;
}
