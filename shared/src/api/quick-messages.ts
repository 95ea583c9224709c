import { z } from 'zod';
import { isOneLine, pageQuery, textSchema } from './common.js';

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
