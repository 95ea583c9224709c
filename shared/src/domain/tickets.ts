/** Ticket states, the actions that move them and who may see or open a ticket (core §4, §6). */
import type { Profile } from './permissions.js';

export const TICKET_STATUSES = ['pending', 'open', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export type TicketAction = 'accept' | 'return' | 'finish' | 'reopen' | 'transfer' | 'route';

/**
 * Which actions each status offers. Pending and open tickets can both be finished. `route` is
 * the platform's (the bot placing a waiting ticket in a queue, or in none), never a button.
 */
export const TICKET_ACTIONS: Record<TicketStatus, readonly TicketAction[]> = {
  pending: ['accept', 'finish', 'transfer', 'route'],
  open: ['return', 'finish', 'transfer'],
  closed: ['reopen'],
};

export const canApply = (status: TicketStatus, action: TicketAction): boolean =>
  TICKET_ACTIONS[status].includes(action);

/** The body of `PUT /tickets/{id}` for an action (core §7: a subset by action). */
export interface TicketUpdate {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
}

export interface TicketState {
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
}

export type TicketCommand =
  | { action: 'accept' | 'return' | 'finish' | 'reopen' }
  | {
      action: 'transfer';
      queueId: number;
      userId?: number | null;
      whatsappId?: number | null;
      /** Handed to `userId` open (the transfer dialog's "open" choice on a waiting ticket). */
      open?: boolean;
    }
  /** The bot's: a waiting ticket nobody holds moves to a queue (`null`: back to no queue). */
  | { action: 'route'; queueId: number | null };

export class TicketTransitionError extends Error {
  constructor(
    readonly status: TicketStatus,
    readonly action: TicketAction,
  ) {
    super(`Cannot ${action} a ${status} ticket`);
    this.name = 'TicketTransitionError';
  }
}

/**
 * The update that `command`, done by user `actorId`, sends for `ticket`. `actorId` null is the
 * platform itself (bot, timers, rating): it may finish (the ticket keeps its user), transfer,
 * return and route, but only a person accepts or reopens a ticket.
 */
export function ticketUpdateFor(
  ticket: TicketState,
  command: TicketCommand,
  actorId: number | null,
): TicketUpdate {
  if (!canApply(ticket.status, command.action)) {
    throw new TicketTransitionError(ticket.status, command.action);
  }
  switch (command.action) {
    case 'accept':
    case 'reopen':
      if (actorId == null) throw new Error(`Only a user can ${command.action} a ticket`);
      return { status: 'open', userId: actorId, queueId: ticket.queueId };
    case 'return':
      return { status: 'pending', userId: null };
    case 'finish':
      return {
        status: 'closed',
        userId: actorId ?? ticket.userId,
        queueId: ticket.queueId,
        useIntegration: false,
        promptId: null,
        integrationId: null,
      };
    case 'transfer': {
      const update: TicketUpdate = { queueId: command.queueId };
      if (command.whatsappId != null) update.whatsappId = command.whatsappId;
      // A queue without a user sends the ticket back to that queue's waiting list.
      if (command.userId == null) return { ...update, status: 'pending', userId: null };
      if (command.open) return { ...update, userId: command.userId, status: 'open' };
      return { ...update, userId: command.userId };
    }
    case 'route':
      // A ticket an agent holds is theirs: the bot does not move it.
      if (ticket.userId != null) throw new TicketTransitionError(ticket.status, command.action);
      return { queueId: command.queueId };
  }
}

/** After an action: a closed ticket is deselected and the user goes back to /tickets. */
export const deselectAfter = (update: TicketUpdate): boolean => update.status === 'closed';

export interface TicketViewer {
  id: number;
  profile: Profile;
  queueIds: readonly number[];
  /** 'enabled' lets a user see tickets without a queue (core §3 allTicket). */
  allTicket: 'enabled' | 'desabled';
}

/**
 * Whether `viewer` may open the ticket: admins any; others only tickets of their queues.
 * A ticket without a queue follows the user's allTicket setting (our reading; core §3).
 */
export function canOpenTicket(viewer: TicketViewer, ticket: { queueId: number | null }): boolean {
  if (viewer.profile === 'admin') return true;
  if (ticket.queueId == null) return viewer.allTicket === 'enabled';
  return viewer.queueIds.includes(ticket.queueId);
}

export interface TicketListFilter {
  status: TicketStatus;
  /** The "show all" toggle; only honoured for users with tickets-manager:showall. */
  showAll: boolean;
  /** The queues the list is filtered on (the user's own by default). */
  queueIds: readonly number[];
}

/**
 * Whether a ticket that changed belongs in a list (live updates, core §4): same status, a
 * permitted queue and, for the assigned tab without show-all, owned by the viewer.
 */
export function ticketBelongsToList(
  ticket: TicketState,
  filter: TicketListFilter,
  viewer: TicketViewer,
): boolean {
  if (ticket.status !== filter.status) return false;
  if (!canOpenTicket(viewer, ticket)) return false;
  if (ticket.queueId != null && filter.queueIds.length > 0) {
    if (!filter.queueIds.includes(ticket.queueId)) return false;
  }
  if (ticket.status === 'open' && !filter.showAll) return ticket.userId === viewer.id;
  return true;
}
