import { ticketBelongsToList, type TicketListFilter, type TicketViewer } from '@atende/shared';
import type { Ticket } from '../../api/types';

/**
 * Live list updates of core §4, as pure functions of a list: an update adds, replaces or
 * removes the ticket depending on status, user and queue; a new message moves it to the top.
 */
export function applyTicketUpdate(
  list: readonly Ticket[],
  ticket: Ticket,
  filter: TicketListFilter,
  viewer: TicketViewer,
): Ticket[] {
  const index = list.findIndex((t) => t.id === ticket.id);
  if (!ticketBelongsToList(ticket, filter, viewer)) {
    return index === -1 ? [...list] : list.filter((t) => t.id !== ticket.id);
  }
  if (index === -1) return [ticket, ...list];
  const next = [...list];
  next[index] = ticket;
  return next;
}

/** A new message: the ticket goes to the top, with the server's unread count. */
export function applyNewMessage(
  list: readonly Ticket[],
  ticket: Ticket,
  filter: TicketListFilter,
  viewer: TicketViewer,
): Ticket[] {
  if (!ticketBelongsToList(ticket, filter, viewer)) return list.filter((t) => t.id !== ticket.id);
  return [ticket, ...list.filter((t) => t.id !== ticket.id)];
}

export const removeTicket = (list: readonly Ticket[], ticketId: number): Ticket[] =>
  list.filter((t) => t.id !== ticketId);

export const resetUnread = (list: readonly Ticket[], ticketId: number): Ticket[] =>
  list.map((t) => (t.id === ticketId ? { ...t, unreadMessages: 0 } : t));

/** Appends a loaded page, dropping tickets already in the list (a live update got there first). */
export function appendPage(list: readonly Ticket[], page: readonly Ticket[]): Ticket[] {
  const seen = new Set(list.map((t) => t.id));
  return [...list, ...page.filter((t) => !seen.has(t.id))];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Last-update time: time of day if today, otherwise dd/MM/yyyy (core §2). */
export function formatLastUpdate(updatedAt: string, now: Date): string {
  const date = new Date(updatedAt);
  if (Number.isNaN(date.getTime())) return '';
  const sameDay =
    date.getFullYear() === now.getFullYear() &&
    date.getMonth() === now.getMonth() &&
    date.getDate() === now.getDate();
  if (sameDay) return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}
