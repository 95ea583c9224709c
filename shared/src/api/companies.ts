import { z } from 'zod';
import { emailSchema, idSchema, isoDay, lineSchema, nameSchema } from './common.js';
import { userPassword } from './users.js';
import { looseBoolean, optionalChoice } from './liberal.js';

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;

const hhmm = lineSchema(5).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM');
export const scheduleEntry = z.object({
  weekday: lineSchema(30).min(1),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTime: hhmm.or(z.literal('')),
  endTime: hhmm.or(z.literal('')),
});
export type ScheduleEntry = z.infer<typeof scheduleEntry>;
export const schedulesBody = z.object({ schedules: z.array(scheduleEntry).max(7) });

/** A day that exists (isoDay); empty or null clears it. */
const dueDate = isoDay.nullable().or(z.literal('').transform(() => null));

export const companyInput = z.object({
  name: lineSchema(100).trim().min(2),
  email: emailSchema,
  phone: lineSchema(30).trim().optional().nullable(),
  planId: idSchema,
  status: looseBoolean,
  dueDate: dueDate.optional(),
  recurrence: optionalChoice(RECURRENCES),
  campaignsEnabled: looseBoolean,
  password: userPassword.optional(),
});
export type CompanyInput = z.infer<typeof companyInput>;
export const companyUpdate = companyInput.partial();
export type CompanyUpdate = z.infer<typeof companyUpdate>;

/**
 * Public sign-up (admin §2). The form also posts recurrence, dueDate, status and
 * campaignsEnabled; the server decides those and ignores what is sent.
 */
export const signupBody = z.object({
  name: nameSchema,
  email: emailSchema,
  phone: lineSchema(40)
    .trim()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(10).max(11)),
  password: userPassword,
  planId: idSchema,
});
export type SignupBody = z.infer<typeof signupBody>;
