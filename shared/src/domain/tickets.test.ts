import { describe, expect, it } from 'vitest';
import {
  canApply,
  canOpenTicket,
  deselectAfter,
  ticketBelongsToList,
  ticketUpdateFor,
  TicketTransitionError,
  type TicketViewer,
} from './tickets.js';

const pending = { status: 'pending', userId: null, queueId: 3 } as const;
const open = { status: 'open', userId: 7, queueId: 3 } as const;
const closed = { status: 'closed', userId: 7, queueId: 3 } as const;

describe('ticketUpdateFor (core §4)', () => {
  it.each([
    ['accept', pending, { status: 'open', userId: 9, queueId: 3 }],
    ['return', open, { status: 'pending', userId: null }],
    [
      'finish',
      open,
      {
        status: 'closed',
        userId: 9,
        queueId: 3,
        useIntegration: false,
        promptId: null,
        integrationId: null,
      },
    ],
    ['reopen', closed, { status: 'open', userId: 9, queueId: 3 }],
  ] as const)('%s on %o', (action, ticket, expected) => {
    expect(ticketUpdateFor(ticket, { action }, 9)).toEqual(expected);
  });

  it('transfer to a queue without a user makes the ticket pending and clears the user', () => {
    expect(ticketUpdateFor(open, { action: 'transfer', queueId: 5 }, 9)).toEqual({
      queueId: 5,
      status: 'pending',
      userId: null,
    });
  });

  it('transfer to a user and connection keeps the status', () => {
    expect(
      ticketUpdateFor(open, { action: 'transfer', queueId: 5, userId: 2, whatsappId: 4 }, 9),
    ).toEqual({ queueId: 5, userId: 2, whatsappId: 4 });
  });

  it('transfer to a user with open hands a waiting ticket over open', () => {
    expect(
      ticketUpdateFor(pending, { action: 'transfer', queueId: 5, userId: 2, open: true }, 9),
    ).toEqual({ queueId: 5, userId: 2, status: 'open' });
  });

  it('the platform (no actor) finishes keeping the user, and cannot accept or reopen', () => {
    expect(ticketUpdateFor(open, { action: 'finish' }, null)).toMatchObject({
      status: 'closed',
      userId: 7,
    });
    expect(() => ticketUpdateFor(pending, { action: 'accept' }, null)).toThrow(/user/);
    expect(() => ticketUpdateFor(closed, { action: 'reopen' }, null)).toThrow(/user/);
  });

  it('route moves a waiting ticket nobody holds, to a queue or to none', () => {
    expect(ticketUpdateFor(pending, { action: 'route', queueId: 5 }, null)).toEqual({
      queueId: 5,
    });
    expect(ticketUpdateFor(pending, { action: 'route', queueId: null }, null)).toEqual({
      queueId: null,
    });
    expect(() =>
      ticketUpdateFor({ ...pending, userId: 2 }, { action: 'route', queueId: 5 }, null),
    ).toThrow(TicketTransitionError);
  });

  it.each([
    ['accept', open],
    ['accept', closed],
    ['return', pending],
    ['reopen', open],
    ['finish', closed],
    ['transfer', closed],
    ['route', open],
    ['route', closed],
  ] as const)('refuses %s on a %s ticket', (action, ticket) => {
    expect(() => ticketUpdateFor(ticket, { action } as never, 9)).toThrow(TicketTransitionError);
    expect(canApply(ticket.status, action)).toBe(false);
  });

  it('closing deselects; opening keeps the selection', () => {
    expect(deselectAfter({ status: 'closed' })).toBe(true);
    expect(deselectAfter({ status: 'open' })).toBe(false);
  });
});

const agent: TicketViewer = { id: 7, profile: 'user', queueIds: [3], allTicket: 'desabled' };
const admin: TicketViewer = { id: 1, profile: 'admin', queueIds: [], allTicket: 'desabled' };

describe('canOpenTicket (core §4)', () => {
  it.each([
    [admin, 99, true],
    [admin, null, true],
    [agent, 3, true],
    [agent, 4, false],
    [agent, null, false],
    [{ ...agent, allTicket: 'enabled' } as const, null, true],
  ] as const)('%o on queue %s → %s', (viewer, queueId, expected) => {
    expect(canOpenTicket(viewer, { queueId })).toBe(expected);
  });
});

describe('ticketBelongsToList (live updates)', () => {
  const openTab = { status: 'open', showAll: false, queueIds: [3] } as const;
  it.each([
    [open, openTab, agent, true],
    [{ ...open, userId: 8 }, openTab, agent, false],
    [{ ...open, userId: 8 }, { ...openTab, showAll: true }, agent, true],
    [pending, openTab, agent, false],
    [pending, { ...openTab, status: 'pending' }, agent, true],
    [{ ...pending, queueId: 4 }, { ...openTab, status: 'pending' }, agent, false],
    [{ ...pending, queueId: 4 }, { ...openTab, status: 'pending', queueIds: [3] }, admin, false],
    [{ ...pending, queueId: 4 }, { ...openTab, status: 'pending', queueIds: [] }, admin, true],
  ] as const)('%o in %o for %o → %s', (ticket, filter, viewer, expected) => {
    expect(ticketBelongsToList(ticket, filter, viewer)).toBe(expected);
  });
});
