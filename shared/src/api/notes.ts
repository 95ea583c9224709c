import { z } from 'zod';
import { idParams, wireDate } from './common.js';
import { endpoint } from './endpoint.js';
import { ticketNoteInput, ticketNoteListQuery } from './tickets.js';

const id = z.number().int();

/** An internal note on a ticket's contact (core §3), with its author's name. */
export const noteAnswer = z.object({
  id,
  note: z.string(),
  ticketId: id,
  contactId: id,
  userId: id.nullable(),
  user: z.object({ id, name: z.string() }).nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type NoteAnswer = z.infer<typeof noteAnswer>;

/** Ticket notes (core §2 contact drawer, §7). */
export const noteEndpoints = {
  listNotes: endpoint({
    method: 'get',
    path: '/ticket-notes/list',
    summary: "The notes of a ticket's contact, newest first",
    tag: 'notes',
    query: ticketNoteListQuery,
    response: z.array(noteAnswer),
  }),
  createNote: endpoint({
    method: 'post',
    path: '/ticket-notes',
    summary: "Adds a note to a ticket's contact",
    tag: 'notes',
    body: ticketNoteInput,
    status: 201,
    response: noteAnswer,
  }),
  deleteNote: endpoint({
    method: 'delete',
    path: '/ticket-notes/:id',
    summary: 'Deletes a note (its author, or an admin)',
    tag: 'notes',
    params: idParams,
    response: z.object({ message: z.string() }),
  }),
} as const;
