// The board's rules, pure (tested in board.test.ts): which lane a ticket sits in, how a move
// changes its tags, and how a live ticket update lands on the board.
import type { KanbanTicket } from '@atende/shared';

/** The 'Em aberto' lane: tickets with no kanban tag. */
export const OPEN_LANE = 'open';
export type LaneKey = typeof OPEN_LANE | `tag-${number}`;

export const laneKey = (tagId: number | null): LaneKey =>
  tagId == null ? OPEN_LANE : `tag-${tagId}`;
export const tagOfLane = (key: string): number | null =>
  key === OPEN_LANE ? null : Number(key.slice('tag-'.length));

/** The ticket's lane: its first kanban tag (tags come by name), or 'Em aberto'. */
export function laneOf(
  ticket: Pick<KanbanTicket, 'tags'>,
  lanes: ReadonlySet<number>,
): number | null {
  return ticket.tags.find((tag) => lanes.has(tag.id))?.id ?? null;
}

/** The ticket after a move: its kanban tags replaced by `to`, its other tags kept. */
export function moved(
  ticket: KanbanTicket,
  to: { id: number; name: string; color: string } | null,
  lanes: ReadonlySet<number>,
): KanbanTicket {
  const others = ticket.tags.filter((tag) => !lanes.has(tag.id));
  const tags = to ? [...others, to].sort((a, b) => a.name.localeCompare(b.name)) : others;
  return { ...ticket, tags };
}

/** The tickets of each lane, newest first. */
export function lanesOf(
  tickets: readonly KanbanTicket[],
  lanes: readonly { id: number }[],
): Map<LaneKey, KanbanTicket[]> {
  const ids = new Set(lanes.map((l) => l.id));
  const out = new Map<LaneKey, KanbanTicket[]>([[OPEN_LANE, []]]);
  for (const lane of lanes) out.set(laneKey(lane.id), []);
  for (const ticket of tickets) out.get(laneKey(laneOf(ticket, ids)))!.push(ticket);
  return out;
}

/**
 * A ticket event on the board: an update replaces or adds the ticket (a closed one leaves), a
 * delete removes it; `queueIds` (when given) drops tickets of other queues (not those without one).
 */
export function applyTicketEvent(
  tickets: readonly KanbanTicket[],
  event:
    | { action: 'update'; ticket: Partial<KanbanTicket> & { id: number; status: string } }
    | { action: 'delete'; ticketId: number },
  queueIds: readonly number[] = [],
): KanbanTicket[] {
  const id = event.action === 'delete' ? event.ticketId : event.ticket.id;
  const rest = tickets.filter((t) => t.id !== id);
  if (event.action === 'delete') return rest;
  const t = event.ticket;
  if (t.status === 'closed') return rest;
  if (queueIds.length && t.queueId != null && !queueIds.includes(t.queueId)) return rest;
  if (!t.uuid || !t.contact || !t.tags) return tickets.slice();
  const ticket: KanbanTicket = {
    id: t.id,
    uuid: t.uuid,
    status: t.status,
    queueId: t.queueId ?? null,
    lastMessage: t.lastMessage ?? '',
    updatedAt: t.updatedAt ?? new Date().toISOString(),
    contact: { id: t.contact.id, name: t.contact.name, number: t.contact.number },
    tags: t.tags.map((g) => ({ id: g.id, name: g.name, color: g.color })),
  };
  const at = tickets.findIndex((x) => x.id === id);
  if (at < 0) return [ticket, ...rest];
  const next = tickets.slice();
  next[at] = ticket;
  return next;
}
