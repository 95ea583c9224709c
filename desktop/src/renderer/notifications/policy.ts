import { canOpenTicket, type TicketViewer } from '@atende/shared';
import type { Message, Ticket } from '../api/types';

export interface NotifyContext {
  /** The window has focus. */
  focused: boolean;
  /** The uuid of the ticket open on screen, if any. */
  openTicketUuid: string | undefined;
}

/**
 * A new message notifies when it comes from the customer, on a ticket the user may see, unless
 * the user is looking at that very ticket (core §4 Notifications, §6 queue visibility).
 */
export function shouldNotify(
  message: Pick<Message, 'fromMe'>,
  ticket: Pick<Ticket, 'uuid' | 'queueId' | 'status' | 'userId'>,
  viewer: TicketViewer,
  context: NotifyContext,
): boolean {
  if (message.fromMe) return false;
  if (!canOpenTicket(viewer, ticket)) return false;
  // Another agent's conversation is theirs to answer.
  if (ticket.status === 'open' && ticket.userId !== null && ticket.userId !== viewer.id)
    return false;
  return !(context.focused && context.openTicketUuid === ticket.uuid);
}
