import { z } from 'zod';
import { idParams, isOneLine, messageAnswer, pageQuery, textSchema, wireDate } from './common.js';
import { endpoint } from './endpoint.js';

/** Secondary §9: 1 Alta, 2 Média, 3 Baixa (default 3). */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export type AnnouncementPriority = (typeof ANNOUNCEMENT_PRIORITIES)[number];
export const DEFAULT_ANNOUNCEMENT_PRIORITY: AnnouncementPriority = 3;
/** Core §9 / secondary §9: the colours the popover shows per priority. */
export const ANNOUNCEMENT_PRIORITY_COLORS: Record<AnnouncementPriority, string> = {
  1: '#d32f2f',
  2: '#ed6c02',
  3: '#9e9e9e',
};
/** Secondary §5: the image attachment is limited to png, jpg, jpeg. */
export const ANNOUNCEMENT_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export const ANNOUNCEMENTS_PAGE_SIZE = 20;

/** Whaticket sends booleans as true/false, 0/1 or their strings; stored strictly. */
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '0', '1'])])
  .transform((v) => v === true || v === 1 || v === 'true' || v === '1');

const priority = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^[123]$/)
      .transform(Number),
  ])
  .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)]));

const title = z
  .string({ error: 'Obrigatório' })
  .refine(isOneLine, 'control characters are not allowed')
  .trim()
  .min(1, 'Obrigatório')
  .max(255);
const text = textSchema(10_000).trim().min(1, 'Obrigatório');

/** Announcement (secondary §3, §5): title and text required. */
export const announcementInput = z.object({
  title,
  text,
  priority: priority.optional().default(DEFAULT_ANNOUNCEMENT_PRIORITY),
  status: flag.optional().default(true),
});
export type AnnouncementInput = z.infer<typeof announcementInput>;

export const announcementUpdate = z.object({
  title: title.optional(),
  text: text.optional(),
  priority: priority.optional(),
  status: flag.optional(),
});
export type AnnouncementUpdate = z.infer<typeof announcementUpdate>;

const id = z.number().int();

export const announcementAnswer = z.object({
  id,
  title: z.string(),
  text: z.string(),
  priority: z.number().int(),
  status: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type AnnouncementAnswer = z.infer<typeof announcementAnswer>;

const withRecord = z.object({ mensagem: z.string(), record: announcementAnswer });

/**
 * Announcements (secondary §7): written by the super user, read by every user of every company
 * (active ones only). Each user has a read state: `unread` counts the active announcements
 * created or changed since the caller last opened the popover (`POST /announcements/read`).
 */
export const announcementEndpoints = {
  listAnnouncements: endpoint({
    method: 'get',
    path: '/announcements',
    summary: 'A page (20): every announcement for the super user, the active ones for others',
    tag: 'announcements',
    query: pageQuery,
    response: z.object({
      records: z.array(announcementAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  announcementsUnread: endpoint({
    method: 'get',
    path: '/announcements/unread',
    summary: 'How many active announcements the caller has not seen (the popover dot)',
    tag: 'announcements',
    response: z.object({ unread: z.number().int().nonnegative() }),
  }),
  readAnnouncements: endpoint({
    method: 'post',
    path: '/announcements/read',
    summary: 'Marks every announcement as seen by the caller (the popover was opened)',
    tag: 'announcements',
    response: z.object({ unread: z.number().int().nonnegative() }),
  }),
  showAnnouncement: endpoint({
    method: 'get',
    path: '/announcements/:id',
    summary: 'One announcement (inactive ones: super user only)',
    tag: 'announcements',
    params: idParams,
    response: announcementAnswer,
  }),
  createAnnouncement: endpoint({
    method: 'post',
    path: '/announcements',
    summary: 'Creates an announcement (super user)',
    tag: 'announcements',
    access: 'super',
    body: announcementInput,
    status: 201,
    response: announcementAnswer,
  }),
  updateAnnouncement: endpoint({
    method: 'put',
    path: '/announcements/:id',
    summary: 'Changes an announcement (super user)',
    tag: 'announcements',
    access: 'super',
    params: idParams,
    body: announcementUpdate,
    response: announcementAnswer,
  }),
  deleteAnnouncement: endpoint({
    method: 'delete',
    path: '/announcements/:id',
    summary: 'Deletes an announcement and its image (super user)',
    tag: 'announcements',
    access: 'super',
    params: idParams,
    response: messageAnswer,
  }),
  attachAnnouncementMedia: endpoint({
    method: 'post',
    path: '/announcements/:id/media-upload',
    summary: "Sets the announcement's image, png/jpg/jpeg (multipart: file) (super user)",
    tag: 'announcements',
    access: 'super',
    params: idParams,
    multipart: true,
    response: withRecord,
  }),
  removeAnnouncementMedia: endpoint({
    method: 'delete',
    path: '/announcements/:id/media-upload',
    summary: "Removes the announcement's image (super user)",
    tag: 'announcements',
    access: 'super',
    params: idParams,
    response: withRecord,
  }),
} as const;
