import { z } from 'zod';
import {
  idParams,
  idSchema,
  isOneLine,
  lineSchema,
  messageAnswer,
  pageQuery,
  textSchema,
  wireDate,
} from './common.js';
import { endpoint } from './endpoint.js';

const id = z.number().int();

/** File list name (secondary §5): required, at least 3 characters ('nome muito curto'). */
export const fileListName = z
  .string({ error: 'Required' })
  .refine(isOneLine, 'control characters are not allowed')
  .trim()
  .min(3, 'nome muito curto')
  .max(100, 'Too Long!');

/**
 * One option of a file list as the form sends it: its name, and its id when it exists already.
 * `path` and `mediaType` are accepted (Whaticket sends them back) but only an upload sets them.
 */
export const fileListOptionInput = z.object({
  id: idSchema.optional(),
  name: lineSchema(255).trim().min(1, 'Required'),
  path: z.unknown().optional(),
  mediaType: z.unknown().optional(),
});

export const FILE_LIST_MAX_OPTIONS = 20;

export const fileListInput = z.object({
  name: fileListName,
  message: textSchema(10_000).trim().min(1, 'Required'),
  /** Options left out of an update are removed, with their files. */
  options: z.array(fileListOptionInput).max(FILE_LIST_MAX_OPTIONS).optional().default([]),
});
export type FileListInput = z.input<typeof fileListInput>;

export const fileListOptionAnswer = z.object({
  id,
  fileListId: id,
  name: z.string(),
  /** The stored file (random name), or null until one is uploaded. */
  path: z.string().nullable(),
  mediaType: z.string().nullable(),
  /** The authenticated media route that serves the file. */
  mediaUrl: z.string().nullable(),
});
export type FileListOptionAnswer = z.infer<typeof fileListOptionAnswer>;

export const fileListAnswer = z.object({
  id,
  companyId: id,
  userId: id.nullable(),
  name: z.string(),
  message: z.string(),
  options: z.array(fileListOptionAnswer),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type FileListAnswer = z.infer<typeof fileListAnswer>;

/**
 * `POST /files/uploadList/:id` text fields (Whaticket's form): for the i-th file of `files`,
 * `id[i]` is the option it fills (a new option named `name[i]` without one), `mediaType[i]` its
 * kind. `fileId` and `typeArch` are accepted and ignored (the path names the list).
 */
const oneOrMany = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
export const fileListUploadFields = z.object({
  fileId: z.unknown().optional(),
  typeArch: z.unknown().optional(),
  id: oneOrMany,
  name: oneOrMany,
  mediaType: oneOrMany,
});

/** File lists (secondary §2, §3, §7): named sets of files with a message, used by campaigns. */
export const fileListEndpoints = {
  listFileLists: endpoint({
    method: 'get',
    path: '/files',
    summary: 'A page (20) of the file lists, by name (the campaign form reads the first page)',
    tag: 'files',
    query: pageQuery,
    response: z.object({
      files: z.array(fileListAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  showFileList: endpoint({
    method: 'get',
    path: '/files/:id',
    summary: 'One file list with its options',
    tag: 'files',
    params: idParams,
    response: fileListAnswer,
  }),
  createFileList: endpoint({
    method: 'post',
    path: '/files',
    summary: 'Creates a file list (its files are uploaded next, to /files/uploadList/:id)',
    tag: 'files',
    body: fileListInput,
    status: 201,
    response: fileListAnswer,
  }),
  updateFileList: endpoint({
    method: 'put',
    path: '/files/:id',
    summary: 'Changes a file list; options left out are removed with their files',
    tag: 'files',
    params: idParams,
    body: fileListInput,
    response: fileListAnswer,
  }),
  deleteFileList: endpoint({
    method: 'delete',
    path: '/files/:id',
    summary: 'Deletes a file list and its files',
    tag: 'files',
    params: idParams,
    response: messageAnswer,
  }),
  uploadFileList: endpoint({
    method: 'post',
    path: '/files/uploadList/:id',
    summary: 'Uploads the files of a list (multipart: files, id, name, mediaType per file)',
    tag: 'files',
    params: idParams,
    multipart: true,
    response: fileListAnswer,
  }),
} as const;
