import { z } from 'zod';
import { normalizePhoneNumber } from '../domain/phone.js';
import {
  emailSchema,
  idSchema,
  isOneLine,
  isoDay,
  lineSchema,
  nameSchema,
  pageQuery,
  textSchema,
} from './common.js';

/**
 * Contact number (core §5): 8 to 50 characters; stored as digits, with the default country
 * (Brazil) added when typed or imported without one (issue 13).
 */
export const contactNumber = z
  .string({ error: 'Required' })
  .refine(isOneLine, 'control characters are not allowed')
  .trim()
  .min(8, 'Too Short!')
  .max(50, 'Too Long!')
  .transform((v) => normalizePhoneNumber(v))
  .refine((v) => v.length >= 8, 'Too Short!');

export const extraInfoItem = z.object({
  id: idSchema.optional(),
  name: lineSchema(100).trim().min(1),
  value: textSchema(2000).default(''),
});

export const contactInput = z.object({
  name: nameSchema,
  number: contactNumber,
  email: z
    .union([z.literal(''), emailSchema])
    .optional()
    .default(''),
  extraInfo: z.array(extraInfoItem).max(100).optional(),
});
export type ContactInput = z.infer<typeof contactInput>;

export const contactUpdate = contactInput.partial().extend({
  profilePicUrl: lineSchema(2000).optional(),
});
export type ContactUpdate = z.infer<typeof contactUpdate>;

export const contactListQuery = pageQuery.extend({
  date: isoDay.optional(),
  dateStart: isoDay.optional(),
  dateEnd: isoDay.optional(),
});

/**
 * `POST /contacts/import`: contacts given in the body, or with no body the phone's contacts
 * through the company's connection (what the Whaticket contacts page sends).
 */
export const contactImport = z.object({
  contacts: z
    .array(
      z.object({
        name: lineSchema(200),
        number: lineSchema(60),
        email: lineSchema(255).optional(),
      }),
    )
    .max(10_000)
    .optional(),
});
