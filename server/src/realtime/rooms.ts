// Which rooms a socket belongs in, and which rooms a ticket's events go to. Pure functions of
// the viewer, its subscriptions and the ticket's placement (status, owner, queue).
import { roomOfCompanyAdmins } from '@atende/shared';

/** Sockets of non-admin users with this queue. */
export const roomOfQueue = (companyId: number, queueId: number): string =>
  `company-${companyId}-queue-${queueId}`;
/** Sockets of non-admin users allowed to see tickets without a queue (allTicket enabled). */
export const roomOfNoQueue = (companyId: number): string => `company-${companyId}-noqueue`;

/** The ticket lists a client can show (joinTickets with one of these statuses). */
export const TICKET_LISTS = ['open', 'pending', 'closed'] as const;
export type TicketList = (typeof TICKET_LISTS)[number];
export const isTicketList = (status: unknown): status is TicketList =>
  TICKET_LISTS.includes(status as TicketList);

/** The sockets of an audience room that show the list of tickets of `status`. */
export const listRoomOf = (audienceRoom: string, status: TicketList): string =>
  `${audienceRoom}-list-${status}`;

/** The rooms whose sockets may see a ticket of this queue: admins plus that queue's users. */
export const ticketAudience = (companyId: number, queueId: number | null): string[] => [
  roomOfCompanyAdmins(companyId),
  queueId == null ? roomOfNoQueue(companyId) : roomOfQueue(companyId, queueId),
];

/** Where a ticket sits for the lists: a change of any of these can take it out of a list. */
export interface TicketPlacement {
  status: string;
  userId: number | null;
  queueId: number | null;
}

export interface SocketViewer {
  admin: boolean;
  queueIds: readonly number[];
  allTicket: boolean;
}

/**
 * The rooms a socket belongs in. Admins are always in the admins room (it also carries the
 * admins' company-wide events); other users enter their queues' rooms once they ask for tickets
 * (joinTickets, joinNotification, joinChatBox), and each list they show adds its list rooms.
 */
export function socketRooms(
  companyId: number,
  viewer: SocketViewer,
  subscriptions: readonly string[],
): string[] {
  const audience = viewer.admin
    ? [roomOfCompanyAdmins(companyId)]
    : [
        ...viewer.queueIds.map((q) => roomOfQueue(companyId, q)),
        ...(viewer.allTicket ? [roomOfNoQueue(companyId)] : []),
      ];
  if (!subscriptions.length) return viewer.admin ? audience : [];
  const lists = subscriptions.flatMap((s) => {
    const status = s.startsWith('tickets:') ? s.slice('tickets:'.length) : undefined;
    return isTicketList(status) ? audience.map((room) => listRoomOf(room, status)) : [];
  });
  return [...audience, ...lists];
}

/** Rooms `socketRooms` manages (the company room, the user room and others are left alone). */
export function isManagedRoom(companyId: number, room: string): boolean {
  const admins = roomOfCompanyAdmins(companyId);
  return (
    room === admins ||
    room.startsWith(`${admins}-list-`) ||
    room.startsWith(`company-${companyId}-queue-`) ||
    room.startsWith(roomOfNoQueue(companyId))
  );
}

/**
 * The list rooms that must hear `delete` because the ticket left their list. A new status or a
 * new owner takes it out of every list it was in (lists of open tickets show one's own unless
 * showAll, so the client that still shows it gets it back with the `update` that follows, as
 * Whaticket's clients expect). A new queue alone needs none: the feed's own delete reaches the
 * viewers that lost the ticket, and the others still show it. A closed ticket whose previous
 * placement is unknown left the open and pending lists.
 */
export function listRoomsLeft(
  companyId: number,
  before: TicketPlacement | undefined,
  after: TicketPlacement,
): string[] {
  if (!before) {
    if (after.status !== 'closed') return [];
    return ticketAudience(companyId, after.queueId).flatMap((room) => [
      listRoomOf(room, 'open'),
      listRoomOf(room, 'pending'),
    ]);
  }
  if (before.status === after.status && before.userId === after.userId) return [];
  if (!isTicketList(before.status)) return [];
  const status = before.status;
  return ticketAudience(companyId, before.queueId).map((room) => listRoomOf(room, status));
}
