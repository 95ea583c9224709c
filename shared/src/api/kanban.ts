import { z } from 'zod';
import { idSchema, ref } from './common.js';
import { endpoint } from './endpoint.js';
import { tagAnswer } from './tags.js';

/**
 * Kanban (secondary §2, §4, §7): lanes are the company's kanban tags (`kanban = 1`) plus 'Em
 * aberto' (tickets with no kanban tag). A move changes one kanban tag of a ticket and keeps its
 * other tags; `fromTagId` is the lane the client saw the card in, so a concurrent move answers
 * 409 ERR_KANBAN_MOVE_CONFLICT instead of silently overwriting.
 */

/** `queueIds` as the Whaticket client sends it: a JSON array in the query string. */
const queueIdsJson = z
  .preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }, z.array(idSchema).max(1000))
  .optional();

export const kanbanTicketsQuery = z.object({ queueIds: queueIdsJson });

const id = z.number().int();

/** A ticket as the kanban shows it (secondary §3). */
export const kanbanTicket = z.object({
  id,
  uuid: z.string(),
  status: z.string(),
  queueId: id.nullable(),
  lastMessage: z.string(),
  updatedAt: z.string(),
  contact: z.object({ id, name: z.string(), number: z.string() }),
  tags: z.array(z.object({ id, name: z.string(), color: z.string() })),
});
export type KanbanTicket = z.infer<typeof kanbanTicket>;

export const ticketTagParams = z.object({ ticketId: ref('ticket'), tagId: ref('tag') });
export const ticketTagsParams = z.object({ ticketId: ref('ticket') });

/** `null` is the 'Em aberto' lane. */
export const kanbanMove = z.object({
  fromTagId: ref('tag').nullable(),
  toTagId: ref('tag').nullable(),
});
export type KanbanMove = z.infer<typeof kanbanMove>;

const ticketTags = z.object({
  ticketId: id,
  tags: z.array(z.object({ id, name: z.string(), color: z.string() })),
});

export const kanbanEndpoints = {
  kanbanTags: endpoint({
    method: 'get',
    path: '/tags/kanban',
    summary: "The company's kanban tags (the board's lanes), by name",
    tag: 'kanban',
    plan: 'useKanban',
    response: z.object({ lista: z.array(tagAnswer) }),
  }),
  kanbanTickets: endpoint({
    method: 'get',
    path: '/ticket/kanban',
    summary: 'Every open or pending ticket the caller may see (of the given queues), no cap',
    tag: 'kanban',
    query: kanbanTicketsQuery,
    plan: 'useKanban',
    response: z.object({ tickets: z.array(kanbanTicket) }),
  }),
  removeKanbanTags: endpoint({
    method: 'delete',
    path: '/ticket-tags/:ticketId',
    summary: "Removes the ticket's kanban tags (its other tags stay)",
    tag: 'kanban',
    params: ticketTagsParams,
    plan: 'useKanban',
    response: ticketTags,
  }),
  moveKanban: endpoint({
    method: 'put',
    path: '/ticket-tags/:ticketId/kanban',
    summary: 'Moves a ticket from one lane to another in one step (409 if it moved meanwhile)',
    tag: 'kanban',
    params: ticketTagsParams,
    body: kanbanMove,
    plan: 'useKanban',
    response: ticketTags,
  }),
  addTicketTag: endpoint({
    method: 'put',
    path: '/ticket-tags/:ticketId/:tagId',
    summary: 'Adds a tag to a ticket (a kanban tag replaces its other kanban tags)',
    tag: 'kanban',
    params: ticketTagParams,
    plan: 'useKanban',
    response: ticketTags,
  }),
} as const;
