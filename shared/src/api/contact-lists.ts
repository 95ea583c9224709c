import { z } from 'zod';
import {
  emailSchema,
  idParams,
  idSchema,
  isOneLine,
  messageAnswer,
  nameSchema,
  pageQuery,
  ref,
  wireDate,
} from './common.js';
import { endpoint } from './endpoint.js';

const id = z.number().int();

/** Contact list (secondary §3, §5): name 2 to 50 characters. */
export const contactListInput = z.object({ name: nameSchema });
export type ContactListInput = z.infer<typeof contactListInput>;

export const contactListAnswer = z.object({
  id,
  companyId: id,
  name: z.string(),
  contactsCount: z.number().int(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type ContactListAnswer = z.infer<typeof contactListAnswer>;

/** `GET /contact-lists/list`: companyId is accepted (Whaticket sends it) but never trusted. */
export const contactListLookupQuery = z.object({ companyId: z.unknown().optional() });

/**
 * Contact list item (secondary §5): name 2 to 50, number 8 to 50 characters, a valid e-mail or
 * none. The server stores the number in its canonical form (see the contact-lists module).
 */
export const contactListItemNumber = z
  .string({ error: 'Required' })
  .refine(isOneLine, 'control characters are not allowed')
  .trim()
  .min(8, 'Too Short!')
  .max(50, 'Too Long!');

const itemEmail = z
  .union([z.literal(''), emailSchema])
  .nullish()
  .transform((v) => v ?? '');

export const contactListItemInput = z.object({
  name: nameSchema,
  number: contactListItemNumber,
  email: itemEmail.optional().default(''),
  /** Whaticket sends it; the caller's company is used. */
  companyId: z.unknown().optional(),
  contactListId: ref('contactList'),
});
export type ContactListItemInput = z.input<typeof contactListItemInput>;

export const contactListItemUpdate = z.object({
  name: nameSchema.optional(),
  number: contactListItemNumber.optional(),
  email: itemEmail.optional(),
  companyId: z.unknown().optional(),
  contactListId: z.unknown().optional(),
});

export const contactListItemAnswer = z.object({
  id,
  companyId: id,
  contactListId: id,
  name: z.string(),
  number: z.string(),
  email: z.string(),
  /** Filled by the connection's number check after an import or a save; null until asked. */
  isWhatsappValid: z.boolean().nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type ContactListItemAnswer = z.infer<typeof contactListItemAnswer>;

export const contactListItemsQuery = pageQuery.extend({ contactListId: ref('contactList') });

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** One spreadsheet import into a list: a durable job whose progress the page shows. */
export const contactListImportAnswer = z.object({
  id,
  contactListId: id,
  fileName: z.string(),
  status: z.enum(IMPORT_STATUSES),
  /** Data rows read from the sheet (0 until it is read). */
  total: z.number().int(),
  /** Rows written to the list so far, of `total - duplicates - invalid`. */
  processed: z.number().int(),
  created: z.number().int(),
  /** Rows folded into an item the list already had (name and e-mail refreshed). */
  updated: z.number().int(),
  /** Rows folded into an earlier row of the same file. */
  duplicates: z.number().int(),
  /** Rows refused (listed in the error report). */
  invalid: z.number().int(),
  /** Why the whole file was refused (status failed). */
  error: z.string().nullable(),
  createdAt: wireDate,
  finishedAt: wireDate.nullable(),
});
export type ContactListImportAnswer = z.infer<typeof contactListImportAnswer>;

const importParams = z.object({ id: idSchema, importId: idSchema });

/** Contact lists and their items (secondary §2, §7). */
export const contactListEndpoints = {
  listContactLists: endpoint({
    method: 'get',
    path: '/contact-lists',
    summary: 'A page (20) of the contact lists, by name, with their contacts count',
    tag: 'contact-lists',
    query: pageQuery,
    response: z.object({
      records: z.array(contactListAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  contactListList: endpoint({
    method: 'get',
    path: '/contact-lists/list',
    summary: 'Every contact list of the company (the campaign form offers them)',
    tag: 'contact-lists',
    query: contactListLookupQuery,
    response: z.array(contactListAnswer),
  }),
  showContactList: endpoint({
    method: 'get',
    path: '/contact-lists/:id',
    summary: 'One contact list',
    tag: 'contact-lists',
    params: idParams,
    response: contactListAnswer,
  }),
  createContactList: endpoint({
    method: 'post',
    path: '/contact-lists',
    summary: 'Creates a contact list',
    tag: 'contact-lists',
    body: contactListInput,
    status: 201,
    response: contactListAnswer,
  }),
  updateContactList: endpoint({
    method: 'put',
    path: '/contact-lists/:id',
    summary: 'Renames a contact list',
    tag: 'contact-lists',
    params: idParams,
    body: contactListInput,
    response: contactListAnswer,
  }),
  deleteContactList: endpoint({
    method: 'delete',
    path: '/contact-lists/:id',
    summary: 'Deletes a contact list and its items',
    tag: 'contact-lists',
    access: 'contacts-page:deleteContact',
    params: idParams,
    response: messageAnswer,
  }),
  uploadContactList: endpoint({
    method: 'post',
    path: '/contact-lists/:id/upload',
    summary: 'Imports a spreadsheet (xlsx, xls, csv; multipart: file) into the list, as a job',
    tag: 'contact-lists',
    params: idParams,
    multipart: true,
    status: 202,
    response: contactListImportAnswer,
  }),
  contactListImports: endpoint({
    method: 'get',
    path: '/contact-lists/:id/imports',
    summary: "The list's imports, newest first (the page shows the progress of the last)",
    tag: 'contact-lists',
    params: idParams,
    response: z.array(contactListImportAnswer),
  }),
  contactListImportErrors: endpoint({
    method: 'get',
    path: '/contact-lists/:id/imports/:importId/errors',
    summary: 'The per-row report of an import (CSV: row, name, number, reason)',
    tag: 'contact-lists',
    params: importParams,
    response: 'file',
  }),
  contactListSample: endpoint({
    method: 'get',
    path: '/contact-lists/sample',
    summary: "The sample spreadsheet 'planilha.xlsx'",
    tag: 'contact-lists',
    response: 'file',
  }),
  listContactListItems: endpoint({
    method: 'get',
    path: '/contact-list-items',
    summary: 'A page (20) of the items of a contact list, by name',
    tag: 'contact-lists',
    query: contactListItemsQuery,
    response: z.object({
      contacts: z.array(contactListItemAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  showContactListItem: endpoint({
    method: 'get',
    path: '/contact-list-items/:id',
    summary: 'One contact list item',
    tag: 'contact-lists',
    params: idParams,
    response: contactListItemAnswer,
  }),
  createContactListItem: endpoint({
    method: 'post',
    path: '/contact-list-items',
    summary: 'Adds a contact to a list (one item per canonical number)',
    tag: 'contact-lists',
    body: contactListItemInput,
    status: 201,
    response: contactListItemAnswer,
  }),
  updateContactListItem: endpoint({
    method: 'put',
    path: '/contact-list-items/:id',
    summary: 'Changes a contact list item',
    tag: 'contact-lists',
    params: idParams,
    body: contactListItemUpdate,
    response: contactListItemAnswer,
  }),
  deleteContactListItem: endpoint({
    method: 'delete',
    path: '/contact-list-items/:id',
    summary: 'Removes a contact from its list',
    tag: 'contact-lists',
    access: 'contacts-page:deleteContact',
    params: idParams,
    response: messageAnswer,
  }),
} as const;
