import { z } from 'zod';
import {
  idParams,
  isOneLine,
  lineSchema,
  nameSchema,
  messageAnswer,
  ref,
  textSchema,
  wireDate,
} from './common.js';
import { endpoint } from './endpoint.js';
import { refOrNone } from './liberal.js';
import { scheduleEntry, type ScheduleEntry } from './companies.js';

/** Admin §9: Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday 00:00-00:00. */
export const DEFAULT_QUEUE_SCHEDULES: ScheduleEntry[] = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

const text = textSchema(10_000);

/** Queue form (admin §5): name 2 to 50, colour 3 to 9 characters, greeting free text. */
export const queueInput = z.object({
  name: nameSchema,
  color: z
    .string({ error: 'Required' })
    .refine(isOneLine, 'control characters are not allowed')
    .trim()
    .min(3, 'Too Short!')
    .max(9, 'Too Long!'),
  greetingMessage: text.optional().default(''),
  outOfHoursMessage: text.optional().default(''),
  orderQueue: z.coerce.number().int().min(0).max(100_000).nullable().optional(),
  schedules: z.array(scheduleEntry).max(7).optional(),
  promptId: refOrNone('prompt'),
  integrationId: refOrNone('integration'),
});
export type QueueInput = z.infer<typeof queueInput>;
export const queueUpdate = queueInput.partial();
export type QueueUpdate = z.infer<typeof queueUpdate>;

/** `parentId` -1 (or absent) means the top level of the queue's option tree (admin §7). */
export const queueOptionListQuery = z.object({
  queueId: ref('queue'),
  parentId: z
    .union([z.literal('-1').transform(() => -1 as const), ref('queueOption')])
    .optional()
    .default(-1),
});

export const queueOptionInput = z.object({
  queueId: ref('queue'),
  parentId: z
    .union([ref('queueOption'), z.literal(-1), z.literal('-1'), z.null()])
    .optional()
    .transform((v) => (v === -1 || v === '-1' || v == null ? null : v)),
  title: lineSchema(200).trim().optional().default(''),
  message: text.optional().default(''),
  /** The number the customer types to pick this option. */
  option: z.union([lineSchema(10), z.number().int().min(0).max(999).transform(String)]).pipe(
    z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, 'a number'),
  ),
});
export type QueueOptionInput = z.infer<typeof queueOptionInput>;
export const queueOptionUpdate = queueOptionInput.omit({ queueId: true }).partial();
export type QueueOptionUpdate = z.infer<typeof queueOptionUpdate>;

const id = z.number().int();

/** A queue as the routes answer it (admin §3): its attachment's link in `mediaUrl`. */
export const queueAnswer = z.object({
  id,
  companyId: id,
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  orderQueue: z.number().int().nullable(),
  schedules: z.array(
    z.object({
      weekday: z.string(),
      weekdayEn: z.string(),
      startTime: z.string(),
      endTime: z.string(),
    }),
  ),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  promptId: id.nullable(),
  integrationId: id.nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type QueueAnswer = z.infer<typeof queueAnswer>;

/** Queues (admin §7): every change is also a company-{id}-queue event. */
export const queueEndpoints = {
  listQueues: endpoint({
    method: 'get',
    path: '/queue',
    summary: 'Every queue of the company, in menu order',
    tag: 'queues',
    query: z.object({ companyId: z.unknown().optional() }),
    response: z.array(queueAnswer),
  }),
  showQueue: endpoint({
    method: 'get',
    path: '/queue/:id',
    summary: 'One queue',
    tag: 'queues',
    params: idParams,
    response: queueAnswer,
  }),
  createQueue: endpoint({
    method: 'post',
    path: '/queue',
    summary: 'Creates a queue',
    tag: 'queues',
    access: 'admin',
    body: queueInput,
    status: 201,
    response: queueAnswer,
  }),
  updateQueue: endpoint({
    method: 'put',
    path: '/queue/:id',
    summary: 'Changes a queue',
    tag: 'queues',
    access: 'admin',
    params: idParams,
    body: queueUpdate,
    response: queueAnswer,
  }),
  deleteQueue: endpoint({
    method: 'delete',
    path: '/queue/:id',
    summary: 'Deletes a queue and its attachment',
    tag: 'queues',
    access: 'admin',
    params: idParams,
    response: messageAnswer,
  }),
  attachQueueMedia: endpoint({
    method: 'post',
    path: '/queue/:id/media-upload',
    summary: "Sets the queue's attachment (file), sent with its greeting",
    tag: 'queues',
    access: 'admin',
    params: idParams,
    multipart: true,
    response: z.object({ mensagem: z.string(), queue: queueAnswer }),
  }),
  removeQueueMedia: endpoint({
    method: 'delete',
    path: '/queue/:id/media-upload',
    summary: "Removes the queue's attachment",
    tag: 'queues',
    access: 'admin',
    params: idParams,
    response: z.object({ mensagem: z.string(), queue: queueAnswer }),
  }),
} as const;

/** A node of a queue's option tree (admin §3); `parentId` null is the top level. */
export const queueOptionAnswer = z.object({
  id,
  companyId: id,
  queueId: id,
  parentId: id.nullable(),
  title: z.string(),
  message: z.string(),
  /** The number the customer types to pick it. */
  option: z.string(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type QueueOptionAnswer = z.infer<typeof queueOptionAnswer>;

export type QueueOptionNode = QueueOptionAnswer & { children: QueueOptionNode[] };
/** An option with its sub-options, each level by option number. */
export const queueOptionNode: z.ZodType<QueueOptionNode> = queueOptionAnswer
  .extend({
    get children() {
      return z.array(queueOptionNode);
    },
  })
  .meta({ id: 'QueueOptionNode' });

/** A queue's chatbot options (admin §7); parentId -1 is the top level. */
export const queueOptionEndpoints = {
  listQueueOptions: endpoint({
    method: 'get',
    path: '/queue-options',
    summary: 'The options under a parent (-1: the top level), each with its sub-options',
    tag: 'queue-options',
    query: queueOptionListQuery,
    response: z.array(queueOptionNode),
  }),
  showQueueOption: endpoint({
    method: 'get',
    path: '/queue-options/:id',
    summary: 'One option',
    tag: 'queue-options',
    params: idParams,
    response: queueOptionAnswer,
  }),
  createQueueOption: endpoint({
    method: 'post',
    path: '/queue-options',
    summary: 'Adds an option to a queue (under parentId)',
    tag: 'queue-options',
    access: 'admin',
    body: queueOptionInput,
    status: 201,
    response: queueOptionAnswer,
  }),
  updateQueueOption: endpoint({
    method: 'put',
    path: '/queue-options/:id',
    summary: 'Changes an option',
    tag: 'queue-options',
    access: 'admin',
    params: idParams,
    body: queueOptionUpdate,
    response: queueOptionAnswer,
  }),
  deleteQueueOption: endpoint({
    method: 'delete',
    path: '/queue-options/:id',
    summary: 'Deletes an option, its sub-options and its attachment',
    tag: 'queue-options',
    access: 'admin',
    params: idParams,
    response: messageAnswer,
  }),
  attachQueueOptionMedia: endpoint({
    method: 'post',
    path: '/queue-options/:id/media-upload',
    summary: "Sets the option's attachment (file)",
    tag: 'queue-options',
    access: 'admin',
    params: idParams,
    multipart: true,
    response: z.object({ mensagem: z.string(), option: queueOptionAnswer }),
  }),
  removeQueueOptionMedia: endpoint({
    method: 'delete',
    path: '/queue-options/:id/media-upload',
    summary: "Removes the option's attachment",
    tag: 'queue-options',
    access: 'admin',
    params: idParams,
    response: z.object({ mensagem: z.string(), option: queueOptionAnswer }),
  }),
} as const;
