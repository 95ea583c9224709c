import { z } from 'zod';
import { endpoint } from './endpoint.js';
import {
  emailSchema,
  idParams,
  idSchema,
  isoDay,
  lineSchema,
  messageAnswer,
  nameSchema,
  pageQuery,
  wireDate,
  wireInt,
} from './common.js';
import { planAnswer } from './plans.js';
import { userPassword } from './users.js';
import { looseBoolean, optionalChoice } from './liberal.js';
import { addMonths, recurrenceMonths } from '../domain/invoice.js';

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;

/**
 * The Companies table's row tint by days to the due date (admin §4): exactly 5 days pale yellow,
 * -3 to 4 amber, exactly -4 red; any other count (or no due date) no tint.
 */
export type DueDateTint = 'paleYellow' | 'amber' | 'red' | null;
export function dueDateTint(daysToDue: number | null): DueDateTint {
  if (daysToDue === null || !Number.isInteger(daysToDue)) return null;
  if (daysToDue === 5) return 'paleYellow';
  if (daysToDue >= -3 && daysToDue <= 4) return 'amber';
  if (daysToDue === -4) return 'red';
  return null;
}

/**
 * The '+ Vencimento' button (admin §4): the due date moved on by the recurrence's months (1, 2, 3,
 * 6 or 12 for MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL, ANUAL); from `today` when there is no
 * valid due date yet.
 */
export function nextDueDate(
  dueDate: string | null | undefined,
  recurrence: string | null | undefined,
  today: string,
): string {
  const from = dueDate && /^\d{4}-\d{2}-\d{2}/.test(dueDate) ? dueDate.slice(0, 10) : today;
  return addMonths(from, recurrenceMonths(recurrence));
}

/** The form's due date as sent (admin §5): a real `yyyy-MM-dd` day, otherwise null. */
export function dueDateOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const parsed = isoDay.safeParse(value);
  return parsed.success ? parsed.data : null;
}

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

const optionalText = z.string().nullable();

/** A company as the routes answer it (administration §3). */
export const companyAnswer = z.object({
  id: wireInt,
  name: z.string(),
  email: optionalText,
  phone: optionalText,
  planId: wireInt.nullable(),
  status: z.boolean(),
  dueDate: optionalText,
  recurrence: z.string(),
  schedules: z.array(
    z.object({
      weekday: z.string(),
      weekdayEn: z.string(),
      startTime: z.string(),
      endTime: z.string(),
    }),
  ),
  document: optionalText,
  billingName: optionalText,
  addressZipCode: optionalText,
  addressStreet: optionalText,
  addressState: optionalText,
  addressCity: optionalText,
  addressDistrict: optionalText,
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type CompanyAnswer = z.infer<typeof companyAnswer>;

/** A company with the settings its reader may see (secrets masked or left out). */
export const companyWithSettings = companyAnswer.extend({
  settings: z.array(z.object({ key: z.string(), value: z.string() })),
});

const companyIdParams = z.object({ companyId: idSchema });

/** Companies (administration §7), the public sign-up and a company's plan (core §7). */
export const companyEndpoints = {
  signUp: endpoint({
    method: 'post',
    path: '/companies/cadastro',
    summary: 'Public sign-up: a company on a trial, with its admin user',
    tag: 'companies',
    access: 'public',
    body: signupBody,
    status: 201,
    response: z.object({ id: wireInt, name: z.string(), dueDate: optionalText }),
  }),
  listPlanOfCompany: endpoint({
    method: 'get',
    path: '/companies/listPlan/:companyId',
    summary: "A company's plan and its feature flags (one's own; any for the super user)",
    tag: 'companies',
    params: companyIdParams,
    response: z.object({ id: wireInt, name: z.string(), plan: planAnswer.nullable() }),
  }),
  companyList: endpoint({
    method: 'get',
    path: '/companies/list',
    summary: 'Every company with its settings and plan {id, name, value}',
    tag: 'companies',
    access: 'super',
    response: z.array(
      companyWithSettings.extend({
        plan: z.object({ id: wireInt, name: z.string(), value: z.number() }).nullable(),
      }),
    ),
  }),
  listCompanies: endpoint({
    method: 'get',
    path: '/companies',
    summary: 'A page of companies',
    tag: 'companies',
    access: 'super',
    query: pageQuery,
    response: z.object({
      companies: z.array(companyAnswer),
      count: wireInt,
      hasMore: z.boolean(),
    }),
  }),
  showCompany: endpoint({
    method: 'get',
    path: '/companies/:id',
    summary: "A company with its settings (one's own; any for the super user)",
    tag: 'companies',
    params: idParams,
    response: companyWithSettings,
  }),
  createCompany: endpoint({
    method: 'post',
    path: '/companies',
    summary: 'Creates a company (with an admin user when a password is given)',
    tag: 'companies',
    access: 'super',
    body: companyInput,
    status: 201,
    response: companyAnswer,
  }),
  updateCompany: endpoint({
    method: 'put',
    path: '/companies/:id',
    summary: 'Changes a company (super user)',
    tag: 'companies',
    params: idParams,
    body: companyUpdate,
    response: companyWithSettings,
  }),
  updateSchedules: endpoint({
    method: 'put',
    path: '/companies/:id/schedules',
    summary: "Saves the company's weekday hours",
    tag: 'companies',
    access: 'admin',
    params: idParams,
    body: schedulesBody,
    response: companyAnswer,
  }),
  deleteCompany: endpoint({
    method: 'delete',
    path: '/companies/:id',
    summary: 'Deletes a company and everything it holds (super user)',
    tag: 'companies',
    params: idParams,
    response: messageAnswer,
  }),
} as const;
