import type { AppContext } from '../../context.js';
import { logger } from '../../logger.js';
import { withChanges } from '../changes/index.js';
import { clearUnread, loadTicket, type TicketView } from '../tickets/index.js';
import { assertCanOpen, type Viewer } from '../tickets/index.js';
import { enqueueAction, refOf } from './messages.service.js';

/** At most this many of the newest customer messages get a read receipt per call. */
const RECEIPT_LIMIT = 100;

/**
 * Whether opening the ticket reads it for its agent (docs/decisions.md, issue 13 items 5-6): not
 * a closed ticket (it carries no unread count), and not a ticket that belongs to another user
 * (an admin or a colleague looking at someone else's conversation leaves it unread for them).
 * Pending tickets nobody took and the viewer's own tickets are read.
 */
export const readsTicket = (
  viewer: Viewer,
  ticket: Pick<TicketView, 'status' | 'userId'>,
): boolean => ticket.status !== 'closed' && (ticket.userId == null || ticket.userId === viewer.id);

/**
 * Marks a ticket read for the viewer: its customer messages read, `unreadMessages` 0, the
 * `updateUnread` event, and (setting `sendReadReceipts`, on by default) read receipts to WhatsApp.
 * The one path for `PUT /messages/{ticketId}` and the implicit read of `GET /messages/{ticketId}`.
 * Throws ERR_TICKET_ACCESS_DENIED for a ticket the viewer may not open; a ticket it does not
 * read ({@link readsTicket}) is left as it is. Answers the ticket's unread count afterwards.
 */
export async function markTicketRead(
  app: AppContext,
  viewer: Viewer,
  ticketId: number,
): Promise<{ ticketId: number; unreadMessages: number }> {
  const companyId = viewer.companyId;
  const result = await withChanges(app, companyId, async (tx, changes) => {
    const ticket = await loadTicket(tx, companyId, ticketId);
    assertCanOpen(viewer, ticket);
    if (!readsTicket(viewer, ticket)) return { ticket, ids: [] as number[], read: false };
    const [rows] = (await tx.query(
      `UPDATE messages SET read = true WHERE "ticketId" = $1 AND "companyId" = $2 AND NOT read
       RETURNING id, "fromMe"`,
      [ticket.id, companyId],
    )) as [{ id: number; fromMe: boolean }[], number];
    if (!rows.length && !ticket.unreadMessages) return { ticket, ids: [], read: true };
    await clearUnread(tx, ticket.id);
    changes.push({
      entity: 'ticket',
      entityId: ticket.id,
      action: 'updateUnread',
      payload: { action: 'updateUnread', ticketId: ticket.id },
      ticketQueueId: ticket.queueId,
    });
    const ids = rows
      .filter((r) => !r.fromMe)
      .map((r) => r.id)
      .sort((a, b) => a - b)
      .slice(-RECEIPT_LIMIT);
    return { ticket, ids, read: true };
  });
  const { ticket, ids, read } = result;
  if (
    ids.length &&
    ticket.whatsappId != null &&
    (await app.settings.enabled(companyId, 'sendReadReceipts'))
  ) {
    // The ticket is read whatever happens to the receipt; a receipt that cannot be queued is
    // logged (the worker logs one that fails to send), never an error for the agent.
    try {
      const refs = await Promise.all(ids.map((id) => refOf(app, companyId, id)));
      await enqueueAction(app, {
        companyId,
        whatsappId: ticket.whatsappId,
        to: refs[0]!.chatId,
        content: { kind: 'markRead', refs },
      });
    } catch (err) {
      logger.warn({ err, companyId, ticketId: ticket.id }, 'read receipt not sent');
    }
  }
  return { ticketId: ticket.id, unreadMessages: read ? 0 : ticket.unreadMessages };
}
