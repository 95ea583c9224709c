import { z } from 'zod';
import { INVOKE, type InvokeChannel } from '../../preload/channels.js';

/** Every IPC argument is validated here before a handler sees it; anything else is refused. */

const MAX_JSON_BYTES = 1_000_000;
const id = z.number().int().positive().max(2_147_483_647);
const isoish = z.string().max(40);

/** A server path: absolute, no scheme or host, no `..`, no backslashes. */
const apiPath = z
  .string()
  .max(2000)
  .regex(/^\/(?!\/)[A-Za-z0-9\-._~/%:@!$&'()*+,;=]*$/, 'invalid path')
  .refine(
    (p) => !p.split('/').some((s) => s === '..' || s.toLowerCase() === '%2e%2e'),
    'invalid path',
  );

const jsonValue = z.unknown().refine((value) => {
  try {
    return value === undefined || JSON.stringify(value).length <= MAX_JSON_BYTES;
  } catch {
    return false;
  }
}, 'body too large or not JSON');

const queryValue = z.union([z.string().max(4000), z.number(), z.boolean(), z.null()]).optional();

export const requestArg = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: apiPath,
  query: z.record(z.string().max(100), queryValue).optional(),
  body: jsonValue.optional(),
  raw: z
    .strictObject({
      contentType: z.string().max(200),
      data: z.instanceof(Uint8Array).refine((d) => d.byteLength <= 64 * 1024 * 1024),
    })
    .optional(),
  responseType: z.enum(['json', 'blob']).optional(),
});

export const realtimeEmitArg = z.strictObject({
  event: z.string().regex(/^[A-Za-z][A-Za-z0-9:_-]{0,63}$/),
  args: z.array(jsonValue).max(4),
});

export const notifyArg = z.strictObject({
  title: z.string().max(200),
  body: z.string().max(1000),
  tag: z.string().max(100).optional(),
  icon: z.string().max(2000).optional(),
});

export const viewTicketArg = z.strictObject({ ticketId: id.nullable(), focused: z.boolean() });
export const openExternalArg = z.strictObject({ url: z.string().max(4000) });

export const cacheTicketsArg = z.strictObject({
  status: z.enum(['open', 'pending', 'closed']).optional(),
  limit: z.number().int().min(1).max(200).optional(),
  after: z.strictObject({ updatedAt: isoish, id }).optional(),
});
export const cacheMessagesArg = z.strictObject({
  ticketId: id,
  limit: z.number().int().min(1).max(200).optional(),
  before: z.strictObject({ createdAt: isoish, key: id }).optional(),
});
export const searchArg = z.strictObject({
  text: z.string().max(200),
  limit: z.number().int().min(1).max(200).optional(),
  ticketId: id.optional(),
});
export const cacheChatsArg = z.strictObject({
  limit: z.number().int().min(1).max(200).optional(),
  after: z.strictObject({ updatedAt: isoish, id }).optional(),
});
export const cacheChatMessagesArg = z.strictObject({
  chatId: id,
  limit: z.number().int().min(1).max(200).optional(),
  before: id.optional(),
});
export const quickMessagesArg = z.strictObject({ prefix: z.string().max(100).optional() });

export const composeArg = z.strictObject({
  ticketId: id,
  body: z.string().trim().min(1).max(65_536),
  quotedMsgId: id.nullable().optional(),
});
export const clientIdArg = z.strictObject({ clientId: z.uuid() });

export const prefsPatch = z.strictObject({
  autoLaunch: z.boolean().optional(),
  muted: z.boolean().optional(),
  groups: z.boolean().optional(),
});

const none = z.union([z.undefined(), z.strictObject({})]);

export const SCHEMAS = {
  [INVOKE.request]: requestArg,
  [INVOKE.realtimeConnect]: none,
  [INVOKE.realtimeEmit]: realtimeEmitArg,
  [INVOKE.realtimeReconnect]: none,
  [INVOKE.realtimeClose]: none,
  [INVOKE.notify]: notifyArg,
  [INVOKE.viewTicket]: viewTicketArg,
  [INVOKE.openExternal]: openExternalArg,
  [INVOKE.cacheTickets]: cacheTicketsArg,
  [INVOKE.cacheMessages]: cacheMessagesArg,
  [INVOKE.cacheSearchMessages]: searchArg,
  [INVOKE.cacheSearchContacts]: searchArg,
  [INVOKE.cacheQuickMessages]: quickMessagesArg,
  [INVOKE.cacheChats]: cacheChatsArg,
  [INVOKE.cacheChatMessages]: cacheChatMessagesArg,
  [INVOKE.outboxCompose]: composeArg,
  [INVOKE.outboxList]: none,
  [INVOKE.outboxConfirm]: clientIdArg,
  [INVOKE.outboxDiscard]: clientIdArg,
  [INVOKE.prefsGet]: none,
  [INVOKE.prefsSet]: prefsPatch,
  [INVOKE.appInfo]: none,
} satisfies Record<InvokeChannel, z.ZodType>;
