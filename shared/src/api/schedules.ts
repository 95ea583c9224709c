import { z } from 'zod';
import {
  idParams,
  isOneLine,
  isText,
  lineSchema,
  pageQuery,
  ref,
  textSchema,
  wireDate,
} from './common.js';
import { endpoint } from './endpoint.js';
import { idOrNone, refOrNone } from './liberal.js';

/**
 * Schedules (secondary §2, §7; core §4, §5 'schedule from ticket'): a message to a contact at a
 * time. `PENDENTE` until its time; `ENVIADA` once stored and queued in the ticket; `ERRO` when it
 * could not be sent (no connection); `PERDIDA` when the server was down at `sendAt` for longer
 * than the grace window (SCHEDULE_GRACE_MINUTES).
 */
export const SCHEDULE_STATUSES = ['PENDENTE', 'ENVIADA', 'ERRO', 'PERDIDA'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Core §5: body at least 5 characters. */
export const SCHEDULE_BODY_MIN = 5;

/** An instant: ISO 8601 with an offset, or a local `yyyy-MM-ddTHH:mm[:ss]` (the company's zone). */
const LOCAL_OR_ZONED =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?$/;
export const sendAtSchema = z
  .string({ error: 'Obrigatório' })
  .refine(isOneLine, 'control characters are not allowed')
  .trim()
  .min(1, 'Obrigatório')
  .pipe(lineSchema(40).regex(LOCAL_OR_ZONED, 'Data inválida'))
  .refine((v) => !Number.isNaN(Date.parse(v.replace(' ', 'T'))), 'Data inválida');

/** Whether an accepted `sendAt` names its offset (else it is wall time in the company's zone). */
export const hasOffset = (v: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(v);

export const scheduleInput = z.object({
  body: z
    .string({ error: 'Mensagem muito curta' })
    .refine(isText, 'control characters are not allowed')
    .pipe(textSchema(10_000))
    .refine((v) => v.trim().length >= SCHEDULE_BODY_MIN, 'Mensagem muito curta'),
  sendAt: sendAtSchema,
  contactId: ref('contact'),
  /** The ticket it was scheduled from (its connection sends it); none: the contact's last. */
  ticketId: refOrNone('ticket'),
  /** A chosen connection; none: the ticket's, or the company's default. */
  whatsappId: refOrNone('whatsapp'),
});
export type ScheduleInput = z.infer<typeof scheduleInput>;
export const scheduleUpdate = scheduleInput.partial();

export const scheduleListQuery = pageQuery.extend({
  /** A filter of the company's list: another company's id matches nothing. */
  contactId: idOrNone,
  /** The calendar's range (`sendAt` within [from, to)). */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

const id = z.number().int();

/** A schedule as the routes answer it (secondary §3, plus what the dialog needs). */
export const scheduleAnswer = z.object({
  id,
  companyId: id,
  body: z.string(),
  sendAt: wireDate,
  sentAt: wireDate.nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  contactId: id,
  ticketId: id.nullable(),
  whatsappId: id.nullable(),
  userId: id.nullable(),
  messageId: id.nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
  contact: z.object({ id, name: z.string(), number: z.string() }).nullable(),
  user: z.object({ id, name: z.string() }).nullable(),
  whatsapp: z.object({ id, name: z.string() }).nullable(),
});
export type ScheduleAnswer = z.infer<typeof scheduleAnswer>;

const withRecord = z.object({ mensagem: z.string(), record: scheduleAnswer });

/** Schedules (secondary §7, core §7): plan flag useSchedules. */
export const scheduleEndpoints = {
  listSchedules: endpoint({
    method: 'get',
    path: '/schedules',
    summary: 'A page (20) of schedules by send time; search by body or contact',
    tag: 'schedules',
    query: scheduleListQuery,
    plan: 'useSchedules',
    response: z.object({
      schedules: z.array(scheduleAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  showSchedule: endpoint({
    method: 'get',
    path: '/schedules/:id',
    summary: 'One schedule',
    tag: 'schedules',
    params: idParams,
    plan: 'useSchedules',
    response: scheduleAnswer,
  }),
  createSchedule: endpoint({
    method: 'post',
    path: '/schedules',
    summary: 'Schedules a message to a contact (refused in the past)',
    tag: 'schedules',
    body: scheduleInput,
    plan: 'useSchedules',
    status: 201,
    response: scheduleAnswer,
  }),
  updateSchedule: endpoint({
    method: 'put',
    path: '/schedules/:id',
    summary: 'Changes a pending schedule (a new time is a new firing)',
    tag: 'schedules',
    params: idParams,
    body: scheduleUpdate,
    plan: 'useSchedules',
    response: scheduleAnswer,
  }),
  deleteSchedule: endpoint({
    method: 'delete',
    path: '/schedules/:id',
    summary: 'Deletes a schedule (a pending one is not sent)',
    tag: 'schedules',
    params: idParams,
    plan: 'useSchedules',
    response: z.object({ message: z.string() }),
  }),
  attachScheduleMedia: endpoint({
    method: 'post',
    path: '/schedules/:id/media-upload',
    summary: "Sets the schedule's image (multipart: file; png, jpg, jpeg)",
    tag: 'schedules',
    params: idParams,
    multipart: true,
    plan: 'useSchedules',
    response: withRecord,
  }),
  removeScheduleMedia: endpoint({
    method: 'delete',
    path: '/schedules/:id/media-upload',
    summary: "Removes the schedule's image",
    tag: 'schedules',
    params: idParams,
    plan: 'useSchedules',
    response: withRecord,
  }),
} as const;
