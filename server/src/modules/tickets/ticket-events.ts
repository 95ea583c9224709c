// The domain events of a ticket update (modules/changes/domain-events.ts), read from the ticket
// before and after it.
import type { DomainEventInput } from '../changes/index.js';

interface TicketState {
  id: number;
  status: string;
  queueId: number | null;
  userId: number | null;
}

/**
 * `ticket.closed`, `ticket.reopened` and `ticket.transferred` (to another queue, or from one
 * agent to another: accepting or returning a ticket is not a transfer).
 */
export function ticketEvents(
  before: TicketState,
  after: TicketState,
  by: 'agent' | 'system',
): DomainEventInput[] {
  const events: DomainEventInput[] = [];
  const ticketId = after.id;
  if (before.status !== 'closed' && after.status === 'closed') {
    events.push({ type: 'ticket.closed', payload: { ticketId, by } });
  } else if (before.status === 'closed' && after.status !== 'closed') {
    events.push({ type: 'ticket.reopened', payload: { ticketId } });
  }
  const userMoved = before.userId != null && after.userId != null && before.userId !== after.userId;
  if (after.status !== 'closed' && (before.queueId !== after.queueId || userMoved)) {
    events.push({
      type: 'ticket.transferred',
      payload: {
        ticketId,
        fromQueueId: before.queueId,
        toQueueId: after.queueId,
        fromUserId: before.userId,
        toUserId: after.userId,
        by,
      },
    });
  }
  return events;
}
