import { z } from 'zod';
import { normalizePhoneNumber } from '../domain/phone.js';
import {
  emailSchema,
  idParams,
  idSchema,
  isOneLine,
  isoDay,
  lineSchema,
  nameSchema,
  messageAnswer,
  pageQuery,
  textSchema,
  wireDate,
} from './common.js';
import { endpoint } from './endpoint.js';

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

/** A contact as the routes answer it (core §3): `urlPicture` repeats `profilePicUrl`. */
export const contactAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string(),
  /** The WhatsApp LID when known (issue 13). */
  lid: z.string().nullable(),
  email: z.string(),
  profilePicUrl: z.string(),
  urlPicture: z.string(),
  isGroup: z.boolean(),
  extraInfo: z.array(z.object({ id: z.number().int(), name: z.string(), value: z.string() })),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type ContactAnswer = z.infer<typeof contactAnswer>;

/** `GET /contacts/list`: every contact of the company, the fields a picker needs. */
export const contactListItem = contactAnswer.pick({
  id: true,
  name: true,
  number: true,
  email: true,
  profilePicUrl: true,
  isGroup: true,
});
export type ContactListItem = z.infer<typeof contactListItem>;

/**
 * `POST /contacts`: the new contact (201); a number already saved answers the existing contact
 * (200, `alreadyExists`), a number WhatsApp does not know answers `invalido` (200), as the
 * Whaticket clients read them.
 */
export const contactCreateAnswer = z.union([
  z.object({ alreadyExists: z.literal(true), existingContact: contactAnswer }),
  z.object({ invalido: z.literal(true), number: z.string(), error: z.string() }),
  contactAnswer,
]);
export type ContactCreateAnswer = z.infer<typeof contactCreateAnswer>;

/** What an import answers: how many contacts were created and the rows refused. */
export const importReport = z.object({
  created: z.number().int(),
  errors: z.array(
    z.object({ row: z.number().int(), error: z.string(), details: z.unknown().optional() }),
  ),
});
export type ImportReport = z.infer<typeof importReport>;

/** Contacts (core §7, admin §7). */
export const contactEndpoints = {
  listContacts: endpoint({
    method: 'get',
    path: '/contacts',
    summary: 'A page of contacts (20), by name, searchable by name or number, by creation day',
    tag: 'contacts',
    query: contactListQuery,
    response: z.object({
      contacts: z.array(contactAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  contactList: endpoint({
    method: 'get',
    path: '/contacts/list',
    summary: 'Every contact of the company, by name',
    tag: 'contacts',
    query: z.object({ companyId: z.unknown().optional() }),
    response: z.array(contactListItem),
  }),
  exportContacts: endpoint({
    method: 'get',
    path: '/contacts/export',
    summary: 'Every contact as a CSV file (name, number, email)',
    tag: 'contacts',
    response: 'file',
  }),
  showContact: endpoint({
    method: 'get',
    path: '/contacts/:id',
    summary: 'One contact with its extra fields',
    tag: 'contacts',
    params: idParams,
    response: contactAnswer,
  }),
  createContact: endpoint({
    method: 'post',
    path: '/contacts',
    summary: 'Creates a contact (a known or unknown number answers 200, see the schema)',
    tag: 'contacts',
    body: contactInput,
    status: 201,
    response: contactCreateAnswer,
  }),
  updateContact: endpoint({
    method: 'put',
    path: '/contacts/:id',
    summary: 'Changes a contact (extraInfo, when given, replaces the extra fields)',
    tag: 'contacts',
    params: idParams,
    body: contactUpdate,
    response: contactAnswer,
  }),
  deleteContact: endpoint({
    method: 'delete',
    path: '/contacts/:id',
    summary: 'Deletes a contact',
    tag: 'contacts',
    access: 'contacts-page:deleteContact',
    params: idParams,
    response: messageAnswer,
  }),
  importContacts: endpoint({
    method: 'post',
    path: '/contacts/import',
    summary: "Imports the contacts given, or with no body the phone's contacts",
    tag: 'contacts',
    body: contactImport,
    response: importReport,
  }),
  uploadContacts: endpoint({
    method: 'post',
    path: '/contacts/upload',
    summary: 'Imports a spreadsheet (file: csv, xlsx or xls; name, number, email columns)',
    tag: 'contacts',
    multipart: true,
    response: importReport,
  }),
} as const;
