import { z } from 'zod';
import { TICKET_STATUSES } from '../domain/tickets.js';
import { idSchema, pageQuery } from './common.js';
import { idOrNone, looseBoolean } from './liberal.js';

/** Lists travel as JSON strings in the query (core §7): `tags=[1,2]`. */
export const jsonIdList = z
  .string()
  .max(4000)
  .transform((raw, ctx) => {
    try {
      const parsed: unknown = JSON.parse(raw);
      const ids = z.array(z.coerce.number().int().positive()).max(500).parse(parsed);
      return ids;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'expected a JSON list of ids' });
      return z.NEVER;
    }
  });

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'yyyy-MM-dd');

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
  cursor: z.string().max(100).optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuery>;

export const ticketCreate = z.object({
  contactId: idSchema,
  queueId: idOrNone,
  whatsappId: idOrNone,
  userId: idOrNone,
  status: z.enum(TICKET_STATUSES).optional(),
});

export const ticketUpdateBody = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: idOrNone,
  queueId: idOrNone,
  whatsappId: idOrNone,
  useIntegration: looseBoolean,
  promptId: idOrNone,
  integrationId: idOrNone,
  chatbot: looseBoolean,
});
export type TicketUpdateBody = z.infer<typeof ticketUpdateBody>;

export const uuidParams = z.object({ uuid: z.string().uuid() });
export const ticketIdParams = z.object({ ticketId: idSchema });

export const messageListQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  cursor: z.string().max(100).optional(),
});

export const messageSend = z.object({
  body: z.string().max(65_536).optional().default(''),
  read: looseBoolean,
  fromMe: looseBoolean,
  mediaUrl: z.string().max(2000).optional(),
  /** The quoted message (an object with its id, as the client holds it, or the id). */
  quotedMsg: z
    .union([idSchema, z.object({ id: idSchema }).passthrough()])
    .nullable()
    .optional(),
  /** Client-generated id: resending the same id never stores or sends the message twice. */
  clientId: z.string().trim().min(8).max(64).optional(),
});
export type MessageSend = z.infer<typeof messageSend>;

export const messageEdit = z.object({ body: z.string().max(65_536) }).passthrough();

export const ticketNoteInput = z.object({
  note: z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(10_000),
  ticketId: idSchema,
  contactId: idSchema,
});
export const ticketNoteListQuery = z.object({ ticketId: idSchema, contactId: idSchema });

export const tagInput = z.object({
  name: z.string({ error: 'Required' }).trim().min(1).max(100),
  color: z.string().trim().max(20).optional(),
  kanban: z.coerce.number().int().min(0).max(1).optional(),
});
export const tagSync = z.object({
  ticketId: idSchema,
  tags: z.array(z.union([idSchema, z.object({ id: idSchema }).passthrough()])).max(100),
});

export const syncQuery = z.object({
  after: z.coerce.number().int().min(0),
  limit: z.coerce.number().int().min(1).max(1000).optional().default(500),
});

export const dashboardQuery = z.object({
  days: z.coerce.number().int().min(1).max(3650).optional(),
  date_from: isoDay.optional(),
  date_to: isoDay.optional(),
});
export const dashboardRangeQuery = z.object({
  initialDate: isoDay.optional(),
  finalDate: isoDay.optional(),
  companyId: z.unknown().optional(),
});
