import { describe, expect, it } from 'vitest';
import {
  CATCH_UP_LIMIT,
  NOTIFICATION_BODY_MAX,
  concernsAgent,
  planNotifications,
  shouldNotify,
  unreadCount,
  type NotifyContext,
} from '../src/main/core/notification-policy.js';
import type { EntityData, Op } from '../src/main/core/types.js';

const ctx: NotifyContext = {
  userId: 1,
  queueIds: [10],
  windowFocused: false,
  viewingTicketId: null,
  muted: false,
  groups: true,
};
const ticket = (id: number, fields: Partial<EntityData> = {}): EntityData => ({
  id,
  status: 'open',
  userId: 1,
  queueId: 10,
  contact: { name: `Cliente ${id}` },
  ...fields,
});
const inbound = (id: number, ticketId: number, body = 'oi'): Op => ({
  entity: 'message',
  op: 'upsert',
  data: { id, ticketId, body, fromMe: false, read: false },
});

describe('notification policy', () => {
  it('concerns the agent: own tickets, and pending ones of their queues or without a queue', () => {
    expect(concernsAgent(ticket(1), ctx)).toBe(true);
    expect(concernsAgent(ticket(1, { userId: 2 }), ctx)).toBe(false);
    expect(concernsAgent(ticket(1, { userId: null, status: 'pending' }), ctx)).toBe(true);
    expect(concernsAgent(ticket(1, { userId: null, status: 'pending', queueId: null }), ctx)).toBe(
      true,
    );
    expect(concernsAgent(ticket(1, { userId: null, status: 'pending', queueId: 11 }), ctx)).toBe(
      false,
    );
    expect(concernsAgent(ticket(1, { userId: null, status: 'open' }), ctx)).toBe(false);
  });

  it('stays quiet for own messages, muted, groups when off, and the ticket on screen', () => {
    const m = { id: 1, ticketId: 1, fromMe: false };
    expect(shouldNotify(m, ticket(1), ctx)).toBe(true);
    expect(shouldNotify({ ...m, fromMe: true }, ticket(1), ctx)).toBe(false);
    expect(shouldNotify({ ...m, isDeleted: true }, ticket(1), ctx)).toBe(false);
    expect(shouldNotify(m, ticket(1), { ...ctx, muted: true })).toBe(false);
    expect(shouldNotify(m, ticket(1, { isGroup: true }), { ...ctx, groups: false })).toBe(false);
    expect(shouldNotify(m, ticket(1), { ...ctx, windowFocused: true, viewingTicketId: 1 })).toBe(
      false,
    );
    // Looking at the ticket in a window in the background still notifies.
    expect(shouldNotify(m, ticket(1), { ...ctx, viewingTicketId: 1 })).toBe(true);
  });

  it('one notification per ticket with its latest message, truncated', () => {
    const long = 'x'.repeat(150);
    const tickets = new Map([
      [1, ticket(1)],
      [2, ticket(2)],
    ]);
    const plans = planNotifications(
      [inbound(1, 1, 'primeira'), inbound(2, 2, 'outra'), inbound(3, 1, long)],
      'event',
      (id) => tickets.get(id) ?? null,
      ctx,
    );
    expect(plans.map((p) => [p.ticketId, p.tag, p.title])).toEqual([
      [2, 'ticket-2', 'Cliente 2'],
      [1, 'ticket-1', 'Cliente 1'],
    ]);
    expect(plans[1]!.body).toHaveLength(NOTIFICATION_BODY_MAX);
    expect(plans[1]!.body.endsWith('…')).toBe(true);
  });

  it('media without text shows its type; read messages and resyncs do not notify', () => {
    const lookup = () => ticket(1);
    const media: Op = {
      entity: 'message',
      op: 'upsert',
      data: { id: 1, ticketId: 1, body: '', mediaType: 'image', fromMe: false, read: false },
    };
    expect(planNotifications([media], 'event', lookup, ctx)[0]!.body).toBe('[image]');
    const read: Op = { ...media, data: { ...media.data, read: true } } as Op;
    expect(planNotifications([read], 'event', lookup, ctx)).toEqual([]);
    expect(planNotifications([media], 'reset', lookup, ctx)).toEqual([]);
  });

  it(`a catch-up with news on more than ${CATCH_UP_LIMIT} tickets becomes one summary`, () => {
    const ops = [1, 2, 3, 4].map((i) => inbound(i, i));
    const plans = planNotifications(ops, 'pull', (id) => ticket(id), ctx);
    expect(plans).toEqual([
      expect.objectContaining({ tag: 'catch-up', summaryOf: 4, ticketId: 4 }),
    ]);
    expect(planNotifications(ops.slice(0, 3), 'pull', (id) => ticket(id), ctx)).toHaveLength(3);
    // Live events are never summarised.
    expect(planNotifications(ops, 'event', (id) => ticket(id), ctx)).toHaveLength(4);
  });

  it('the tray count sums unread messages of the tickets that concern the agent', () => {
    const tickets = [
      ticket(1, { unreadMessages: 2 }),
      ticket(2, { unreadMessages: 5, userId: 2 }),
      ticket(3, { unreadMessages: 1, userId: null, status: 'pending' }),
      ticket(4, { unreadMessages: 0 }),
    ];
    expect(unreadCount(tickets, ctx)).toBe(3);
  });
});
