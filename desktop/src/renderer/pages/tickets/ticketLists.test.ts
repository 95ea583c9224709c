import type { TicketListFilter, TicketViewer } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../api/types';
import { makeTicket } from '../../../../test/fixtures';
import {
  appendPage,
  applyNewMessage,
  applyTicketUpdate,
  formatLastUpdate,
  removeTicket,
  resetUnread,
} from './ticketLists';

const ticket = (id: number, over: Partial<Ticket> = {}): Ticket =>
  makeTicket(id, { uuid: `u${id}`, queueId: 3, updatedAt: '2025-01-01T10:00:00Z', ...over });
const viewer: TicketViewer = { id: 7, profile: 'user', queueIds: [3], allTicket: 'desabled' };
const pending: TicketListFilter = { status: 'pending', showAll: false, queueIds: [3] };
const open: TicketListFilter = { status: 'open', showAll: false, queueIds: [3] };
const ids = (list: Ticket[]) => list.map((t) => t.id);

describe('live ticket list updates (core §4)', () => {
  it('adds a new matching ticket at the top', () => {
    expect(ids(applyTicketUpdate([ticket(1)], ticket(2), pending, viewer))).toEqual([2, 1]);
  });

  it('replaces a ticket in place', () => {
    const list = applyTicketUpdate(
      [ticket(1), ticket(2)],
      ticket(2, { lastMessage: 'oi' }),
      pending,
      viewer,
    );
    expect(ids(list)).toEqual([1, 2]);
    expect(list[1]?.lastMessage).toBe('oi');
  });

  it('removes a ticket that left the list (accepted: pending → open)', () => {
    const accepted = ticket(1, { status: 'open', userId: 7 });
    expect(ids(applyTicketUpdate([ticket(1), ticket(2)], accepted, pending, viewer))).toEqual([2]);
    expect(ids(applyTicketUpdate([], accepted, open, viewer))).toEqual([1]);
  });

  it("does not add another user's open ticket without show-all, nor another queue's", () => {
    expect(applyTicketUpdate([], ticket(1, { status: 'open', userId: 8 }), open, viewer)).toEqual(
      [],
    );
    expect(applyTicketUpdate([], ticket(1, { queueId: 4 }), pending, viewer)).toEqual([]);
  });

  it('moves a ticket with a new message to the top', () => {
    const list = [ticket(1), ticket(2), ticket(3)];
    const updated = ticket(3, { unreadMessages: 2 });
    const next = applyNewMessage(list, updated, pending, viewer);
    expect(ids(next)).toEqual([3, 1, 2]);
    expect(next[0]?.unreadMessages).toBe(2);
  });

  it('delete removes; unread reset zeroes the count', () => {
    expect(ids(removeTicket([ticket(1), ticket(2)], 1))).toEqual([2]);
    expect(resetUnread([ticket(1, { unreadMessages: 5 })], 1)[0]?.unreadMessages).toBe(0);
  });

  it('a page never duplicates a ticket already listed', () => {
    expect(ids(appendPage([ticket(1), ticket(2)], [ticket(2), ticket(3)]))).toEqual([1, 2, 3]);
  });
});

describe('formatLastUpdate (core §2)', () => {
  const now = new Date(2025, 5, 10, 18, 0);
  it.each([
    [new Date(2025, 5, 10, 9, 5), '09:05'],
    [new Date(2025, 5, 9, 23, 59), '09/06/2025'],
    [new Date(2024, 11, 31, 12, 0), '31/12/2024'],
  ])('%s → %s', (date, expected) => {
    expect(formatLastUpdate(date.toISOString(), now)).toBe(expected);
  });
});
