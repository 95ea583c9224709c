import { z } from 'zod';
import { TICKET_STATUSES } from '../domain/tickets.js';
import {
  idParams,
  idSchema,
  isOneLine,
  isText,
  isoDay,
  lineSchema,
  messageAnswer,
  pageQuery,
  queryInt,
  ref,
  sequenceSchema,
  textSchema,
  uuidSchema,
  wireDate,
} from './common.js';
import { endpoint } from './endpoint.js';
import { looseBoolean, refOrNone } from './liberal.js';

/**
 * A JSON list of ids, each in canonical form (`[1,2]` or `["1","2"]`; never `[01]`, `[1.0]`).
 * Only spaces between items: JSON.parse is reached only with text it accepts.
 */
const JSON_ID = String.raw`(?:[1-9]\d{0,9}|"[1-9]\d{0,9}")`;
const JSON_ID_LIST = new RegExp(String.raw`^\[ *(?:${JSON_ID} *(?:, *${JSON_ID} *)*)?\]$`);

/** Lists travel as JSON strings in the query (core §7): `tags=[1,2]`. */
export const jsonIdList = lineSchema(4000).transform((raw, ctx) => {
  const parsed = JSON_ID_LIST.test(raw)
    ? z.array(idSchema).max(500).safeParse(JSON.parse(raw))
    : null;
  if (parsed?.success) return parsed.data;
  ctx.addIssue({ code: 'custom', message: 'expected a JSON list of ids' });
  return z.NEVER;
});

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');
// atob exists in browsers and Node alike; shared's type library has neither.
const decodeBase64 = (text: string): string =>
  (globalThis as unknown as { atob: (s: string) => string }).atob(text);

/**
 * The timestamps a cursor may carry: ISO (`2024-05-01T10:00:00.000Z`, the message list) or
 * Postgres' text form (`2024-05-01 10:00:00.123456+00`, the ticket list, microseconds kept).
 */
const CURSOR_TIME =
  /^(\d{4}-\d{2}-\d{2})[T ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-](0\d|1[0-4])(:?[0-5]\d)?)$/;
const isCursorTime = (ts: string): boolean => {
  const match = CURSOR_TIME.exec(ts);
  if (!match) return false;
  const day = match[1]!;
  const date = new Date(`${day}T00:00:00Z`);
  return day >= '0001-01-01' && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
};

/**
 * A keyset cursor as the server hands it out: base64url of `<timestamp>|<id>`. Anything else is
 * a 400, never a query.
 */
export const keysetCursor = lineSchema(100).refine((cursor) => {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return false;
  let text: string;
  try {
    text = decodeBase64(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return false;
  }
  const [ts, id, ...rest] = text.split('|');
  return rest.length === 0 && isCursorTime(ts ?? '') && idSchema.safeParse(id).success;
}, 'invalid cursor');

export const ticketListQuery = pageQuery.extend({
  status: z.enum(TICKET_STATUSES).optional(),
  showAll: flag.optional().default(false),
  withUnreadMessages: flag.optional().default(false),
  tags: jsonIdList.optional(),
  users: jsonIdList.optional(),
  queueIds: jsonIdList.optional(),
  date: isoDay.optional(),
  updatedAt: isoDay.optional(),
  isNotAssignedUser: flag.optional(),
  /** Keyset cursor from a previous page's `nextCursor`; faster than pageNumber deep down. */
  cursor: keysetCursor.optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuery>;

export const ticketCreate = z.object({
  contactId: ref('contact'),
  queueId: refOrNone('queue'),
  whatsappId: refOrNone('whatsapp'),
  userId: refOrNone('user'),
  status: z.enum(TICKET_STATUSES).optional(),
});

export const ticketUpdateBody = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: refOrNone('user'),
  queueId: refOrNone('queue'),
  whatsappId: refOrNone('whatsapp'),
  useIntegration: looseBoolean,
  promptId: refOrNone('prompt'),
  integrationId: refOrNone('integration'),
  chatbot: looseBoolean,
});
export type TicketUpdateBody = z.infer<typeof ticketUpdateBody>;

export const uuidParams = z.object({ uuid: uuidSchema });
export const ticketIdParams = z.object({ ticketId: idSchema });

export const messageListQuery = z.object({
  pageNumber: queryInt(1, 100_000).optional().default(1),
  cursor: keysetCursor.optional(),
});

export const messageSend = z.object({
  body: textSchema(65_536).optional().default(''),
  read: looseBoolean,
  fromMe: looseBoolean,
  mediaUrl: lineSchema(2000).optional(),
  /** The quoted message (an object with its id, as the client holds it, or the id). */
  quotedMsg: z
    .union([ref('message'), z.object({ id: ref('message') }).passthrough()])
    .nullable()
    .optional(),
  /** Client-generated id: resending the same id never stores or sends the message twice. */
  clientId: lineSchema(64).trim().min(8).optional(),
});
export type MessageSend = z.infer<typeof messageSend>;

export const messageEdit = z.object({ body: textSchema(65_536) }).passthrough();

export const ticketNoteInput = z.object({
  note: z
    .string({ error: 'Required' })
    .refine(isText, 'control characters are not allowed')
    .trim()
    .min(2, 'Too Short!')
    .max(10_000),
  ticketId: ref('ticket'),
  contactId: ref('contact'),
});
export const ticketNoteListQuery = z.object({ ticketId: ref('ticket'), contactId: ref('contact') });

/** Admin §5: name required ('Obrigatório'), at least 3 characters ('Mensagem muito curta'). */
export const tagInput = z.object({
  name: z
    .string({ error: 'Obrigatório' })
    .refine(isOneLine, 'control characters are not allowed')
    .trim()
    .min(3, 'Mensagem muito curta')
    .max(100),
  color: lineSchema(20).trim().optional(),
  kanban: z.union([z.literal(0), z.literal(1), z.enum(['0', '1']).transform(Number)]).optional(),
});
export const tagSync = z.object({
  ticketId: ref('ticket'),
  tags: z.array(z.union([ref('tag'), z.object({ id: ref('tag') }).passthrough()])).max(100),
});

export const syncQuery = z.object({
  after: sequenceSchema,
  limit: queryInt(1, 1000).optional().default(500),
});

export const dashboardQuery = z.object({
  days: queryInt(1, 3650).optional(),
  date_from: isoDay.optional(),
  date_to: isoDay.optional(),
});
export const dashboardRangeQuery = z.object({
  initialDate: isoDay.optional(),
  finalDate: isoDay.optional(),
  companyId: z.unknown().optional(),
});

const id = z.number().int();

/** A ticket as the lists and the ticket view show it (core §3), with its relations. */
export const ticketAnswer = z.object({
  id,
  uuid: z.string(),
  status: z.enum(TICKET_STATUSES),
  contactId: id,
  whatsappId: id.nullable(),
  userId: id.nullable(),
  queueId: id.nullable(),
  lastMessage: z.string(),
  unreadMessages: z.number().int(),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  useIntegration: z.boolean(),
  promptId: id.nullable(),
  integrationId: id.nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
  contact: z.object({
    id,
    name: z.string(),
    number: z.string(),
    profilePicUrl: z.string(),
    email: z.string(),
  }),
  user: z.object({ id, name: z.string() }).nullable(),
  queue: z.object({ id, name: z.string(), color: z.string() }).nullable(),
  whatsapp: z.object({ id, name: z.string() }).nullable(),
  tags: z.array(z.object({ id, name: z.string(), color: z.string() })),
});
export type TicketAnswer = z.infer<typeof ticketAnswer>;

/** Tickets (core §7). */
export const ticketEndpoints = {
  listTickets: endpoint({
    method: 'get',
    path: '/tickets',
    summary: 'A page of the tickets the caller may see, newest first (lists as JSON strings)',
    tag: 'tickets',
    query: ticketListQuery,
    response: z.object({
      tickets: z.array(ticketAnswer),
      hasMore: z.boolean(),
      /** The keyset cursor of the next page (null on the last). */
      nextCursor: z.string().nullable(),
    }),
  }),
  showTicketByUuid: endpoint({
    method: 'get',
    path: '/tickets/u/:uuid',
    summary: 'One ticket by its public uuid',
    tag: 'tickets',
    params: uuidParams,
    response: ticketAnswer,
  }),
  showTicket: endpoint({
    method: 'get',
    path: '/tickets/:id',
    summary: 'One ticket',
    tag: 'tickets',
    params: idParams,
    response: ticketAnswer,
  }),
  createTicket: endpoint({
    method: 'post',
    path: '/tickets',
    summary: 'Opens a ticket for a contact (ERR_OTHER_OPEN_TICKET when one is open)',
    tag: 'tickets',
    body: ticketCreate,
    status: 201,
    response: ticketAnswer,
  }),
  updateTicket: endpoint({
    method: 'put',
    path: '/tickets/:id',
    summary: 'Accepts, returns, transfers, closes or reopens a ticket (the transition rule)',
    tag: 'tickets',
    params: idParams,
    body: ticketUpdateBody,
    response: ticketAnswer,
  }),
  deleteTicket: endpoint({
    method: 'delete',
    path: '/tickets/:id',
    summary: 'Deletes a ticket and its messages',
    tag: 'tickets',
    access: 'ticket-options:deleteTicket',
    params: idParams,
    response: messageAnswer,
  }),
} as const;
