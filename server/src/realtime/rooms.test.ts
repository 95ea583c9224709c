import { describe, expect, it } from 'vitest';
import { isManagedRoom, listRoomsLeft, socketRooms, type TicketPlacement } from './rooms.js';

const C = 7;
const agent = { admin: false, queueIds: [1, 2], allTicket: false };
const admin = { admin: true, queueIds: [], allTicket: false };

describe('socketRooms', () => {
  it.each([
    ['an admin without subscriptions', admin, [], ['company-7-admins']],
    ['an agent without subscriptions', agent, [], []],
    [
      'an agent with notifications',
      agent,
      ['notification'],
      ['company-7-queue-1', 'company-7-queue-2'],
    ],
    [
      'an agent showing pending tickets, allTicket on',
      { ...agent, queueIds: [1], allTicket: true },
      ['tickets:pending'],
      [
        'company-7-queue-1',
        'company-7-noqueue',
        'company-7-queue-1-list-pending',
        'company-7-noqueue-list-pending',
      ],
    ],
    [
      'an admin showing open tickets and a search (no list rooms for it)',
      admin,
      ['tickets:open', 'tickets:all'],
      ['company-7-admins', 'company-7-admins-list-open'],
    ],
  ] as const)('%s', (_, viewer, subscriptions, rooms) => {
    expect(socketRooms(C, viewer, subscriptions)).toEqual(rooms);
  });

  it.each([
    ['company-7-admins', true],
    ['company-7-admins-list-open', true],
    ['company-7-queue-3-list-pending', true],
    ['company-7-noqueue', true],
    ['company-7', false],
    ['user-9', false],
    ['company-8-admins', false],
  ])('%s is managed: %s', (room, managed) => {
    expect(isManagedRoom(C, room)).toBe(managed);
  });
});

describe('listRoomsLeft', () => {
  const pending: TicketPlacement = { status: 'pending', userId: null, queueId: 1 };
  const open: TicketPlacement = { status: 'open', userId: 5, queueId: 1 };
  it.each([
    [
      'accepted',
      pending,
      open,
      ['company-7-admins-list-pending', 'company-7-queue-1-list-pending'],
    ],
    [
      'handed to another agent',
      open,
      { ...open, userId: 6 },
      ['company-7-admins-list-open', 'company-7-queue-1-list-open'],
    ],
    ['moved to another queue only', pending, { ...pending, queueId: 2 }, []],
    ['nothing of its place changed', open, open, []],
    [
      'closed, previous place unknown',
      undefined,
      { ...open, status: 'closed' },
      [
        'company-7-admins-list-open',
        'company-7-admins-list-pending',
        'company-7-queue-1-list-open',
        'company-7-queue-1-list-pending',
      ],
    ],
    ['updated, previous place unknown', undefined, open, []],
    [
      'reopened from closed without a queue',
      { status: 'closed', userId: 5, queueId: null },
      { ...open, queueId: null },
      ['company-7-admins-list-closed', 'company-7-noqueue-list-closed'],
    ],
  ] as const)('%s', (_, before, after, rooms) => {
    expect(listRoomsLeft(C, before, after)).toEqual(rooms);
  });
});
