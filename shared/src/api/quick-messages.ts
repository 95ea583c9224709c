import { z } from 'zod';
import { idParams, isOneLine, messageAnswer, pageQuery, textSchema, wireDate } from './common.js';
import { endpoint } from './endpoint.js';

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true');

/** Quick message (secondary §3, §5): shortcode required; `geral` is company-wide. */
export const quickMessageInput = z.object({
  shortcode: z
    .string({ error: 'Obrigatório' })
    .refine(isOneLine, 'control characters are not allowed')
    .trim()
    .min(1, 'Obrigatório')
    .max(100),
  message: textSchema(10_000).optional().default(''),
  geral: flag.optional().default(false),
});
export type QuickMessageInput = z.infer<typeof quickMessageInput>;
export const quickMessageUpdate = z.object({
  shortcode: quickMessageInput.shape.shortcode.optional(),
  message: textSchema(10_000).optional(),
  geral: flag.optional(),
});
export type QuickMessageUpdate = z.infer<typeof quickMessageUpdate>;

export const quickMessageListQuery = pageQuery;
/** `/quick-messages/list` (core §7): companyId and userId are accepted but never trusted. */
export const quickMessageLookupQuery = z.object({
  companyId: z.unknown().optional(),
  userId: z.unknown().optional(),
});

const id = z.number().int();

/** A quick message as the routes answer it (secondary §3): `isMedia` when it has a file. */
export const quickMessageAnswer = z.object({
  id,
  companyId: id,
  /** Its owner (null once the user is gone). */
  userId: id.nullable(),
  shortcode: z.string(),
  message: z.string(),
  geral: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  isMedia: z.boolean(),
  mediaUrl: z.string().nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type QuickMessageAnswer = z.infer<typeof quickMessageAnswer>;

const withRecord = z.object({ mensagem: z.string(), record: quickMessageAnswer });

/** Quick messages (secondary §7): a user's own and the company-wide (`geral`) ones. */
export const quickMessageEndpoints = {
  listQuickMessages: endpoint({
    method: 'get',
    path: '/quick-messages',
    summary: 'A page (20) of the quick messages the caller sees, by shortcode',
    tag: 'quick-messages',
    query: quickMessageListQuery,
    response: z.object({
      records: z.array(quickMessageAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  quickMessageList: endpoint({
    method: 'get',
    path: '/quick-messages/list',
    summary: 'Every quick message the caller sees (the message input offers them)',
    tag: 'quick-messages',
    query: quickMessageLookupQuery,
    response: z.array(quickMessageAnswer),
  }),
  showQuickMessage: endpoint({
    method: 'get',
    path: '/quick-messages/:id',
    summary: 'One quick message',
    tag: 'quick-messages',
    params: idParams,
    response: quickMessageAnswer,
  }),
  createQuickMessage: endpoint({
    method: 'post',
    path: '/quick-messages',
    summary: 'Creates a quick message (geral: admin only)',
    tag: 'quick-messages',
    body: quickMessageInput,
    status: 201,
    response: quickMessageAnswer,
  }),
  updateQuickMessage: endpoint({
    method: 'put',
    path: '/quick-messages/:id',
    summary: 'Changes a quick message (its owner, or a manager)',
    tag: 'quick-messages',
    params: idParams,
    body: quickMessageUpdate,
    response: quickMessageAnswer,
  }),
  deleteQuickMessage: endpoint({
    method: 'delete',
    path: '/quick-messages/:id',
    summary: 'Deletes a quick message and its file',
    tag: 'quick-messages',
    params: idParams,
    response: messageAnswer,
  }),
  attachQuickMessageMedia: endpoint({
    method: 'post',
    path: '/quick-messages/:id/media-upload',
    summary: "Sets the quick message's file (multipart: file, typeArch)",
    tag: 'quick-messages',
    params: idParams,
    multipart: true,
    response: withRecord,
  }),
  removeQuickMessageMedia: endpoint({
    method: 'delete',
    path: '/quick-messages/:id/media-upload',
    summary: "Removes the quick message's file",
    tag: 'quick-messages',
    params: idParams,
    response: withRecord,
  }),
} as const;
