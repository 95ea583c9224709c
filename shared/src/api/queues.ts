import { z } from 'zod';
import { idSchema, nameSchema } from './common.js';
import { idOrNone } from './liberal.js';
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

const text = z.string().max(10_000);

/** Queue form (admin §5): name 2 to 50, colour 3 to 9 characters, greeting free text. */
export const queueInput = z.object({
  name: nameSchema,
  color: z.string({ error: 'Required' }).trim().min(3, 'Too Short!').max(9, 'Too Long!'),
  greetingMessage: text.optional().default(''),
  outOfHoursMessage: text.optional().default(''),
  orderQueue: z.coerce.number().int().min(0).max(100_000).nullable().optional(),
  schedules: z.array(scheduleEntry).max(7).optional(),
  promptId: idOrNone,
  integrationId: idOrNone,
});
export type QueueInput = z.infer<typeof queueInput>;
export const queueUpdate = queueInput.partial();
export type QueueUpdate = z.infer<typeof queueUpdate>;

/** `parentId` -1 (or absent) means the top level of the queue's option tree (admin §7). */
export const queueOptionListQuery = z.object({
  queueId: idSchema,
  parentId: z.coerce.number().int().min(-1).max(2_147_483_647).optional().default(-1),
});

export const queueOptionInput = z.object({
  queueId: idSchema,
  parentId: z
    .union([idSchema, z.literal(-1), z.literal('-1'), z.null()])
    .optional()
    .transform((v) => (v === -1 || v === '-1' || v == null ? null : v)),
  title: z.string().trim().max(200).optional().default(''),
  message: text.optional().default(''),
  /** The number the customer types to pick this option. */
  option: z.coerce
    .string()
    .trim()
    .regex(/^\d{1,3}$/, 'a number'),
});
export type QueueOptionInput = z.infer<typeof queueOptionInput>;
export const queueOptionUpdate = queueOptionInput.omit({ queueId: true }).partial();
export type QueueOptionUpdate = z.infer<typeof queueOptionUpdate>;
