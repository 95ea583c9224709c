import { z } from 'zod';
import { isOneLine, lineSchema, nameSchema, ref, textSchema } from './common.js';
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
