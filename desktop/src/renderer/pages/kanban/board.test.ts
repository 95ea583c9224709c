import type { KanbanTicket } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { applyTicketEvent, lanesOf, laneOf, moved, OPEN_LANE } from './board';

const vip = { id: 9, name: 'VIP', color: '#999' };
const todo = { id: 1, name: 'A fazer', color: '#111' };
const doing = { id: 2, name: 'Fazendo', color: '#222' };
const lanes = new Set([1, 2]);
const ticket = (id: number, tags = [vip]): KanbanTicket => ({
  id,
  uuid: `u-${id}`,
  status: 'open',
  queueId: 5,
  lastMessage: 'oi',
  updatedAt: '2030-01-01T00:00:00Z',
  contact: { id: 100 + id, name: `C${id}`, number: '5511' },
  tags,
});

describe('kanban board rules', () => {
  it("a ticket without a kanban tag is 'Em aberto'; else its first kanban tag", () => {
    expect(laneOf(ticket(1), lanes)).toBeNull();
    expect(laneOf(ticket(1, [todo, vip]), lanes)).toBe(1);
    const byLane = lanesOf([ticket(1), ticket(2, [doing, vip])], [todo, doing]);
    expect(byLane.get(OPEN_LANE)!.map((t) => t.id)).toEqual([1]);
    expect(byLane.get('tag-2')!.map((t) => t.id)).toEqual([2]);
    expect(byLane.get('tag-1')).toEqual([]);
  });

  it('a move keeps the non-kanban tags', () => {
    expect(moved(ticket(1, [todo, vip]), doing, lanes).tags).toEqual([doing, vip]);
    expect(moved(ticket(1, [todo, vip]), null, lanes).tags).toEqual([vip]);
  });

  it('live updates add, move and remove cards', () => {
    const board = [ticket(1)];
    const update = { action: 'update' as const, ticket: { ...ticket(2, [todo]) } };
    expect(applyTicketEvent(board, update).map((t) => t.id)).toEqual([2, 1]);
    const closed = { action: 'update' as const, ticket: { ...ticket(1), status: 'closed' } };
    expect(applyTicketEvent(board, closed)).toEqual([]);
    expect(applyTicketEvent(board, { action: 'delete', ticketId: 1 })).toEqual([]);
    expect(applyTicketEvent(board, update, [7])).toEqual(board);
  });
});
