import type { EntityManager } from 'typeorm';
import {
  addLocalDays,
  type CompanyInput,
  type ScheduleEntry,
  type SignupBody,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { PlanEntity } from '../plans/index.js';
import { SettingsService } from '../settings/index.js';
import { UserEntity } from '../users/index.js';
import { hashPassword } from '../users/index.js';
import { CompanyEntity, type Company } from './company.entity.js';

const DAY_MS = 86_400_000;

export const addDays = (from: Date, days: number): string =>
  new Date(from.getTime() + days * DAY_MS).toISOString().slice(0, 10);

/** Default company schedule (admin §9): Mon–Fri 08:00–18:00, Sat 08:00–12:00, Sun closed. */
export const DEFAULT_SCHEDULES: ScheduleEntry[] = [
  ['Segunda-feira', 'monday', '08:00', '18:00'],
  ['Terça-feira', 'tuesday', '08:00', '18:00'],
  ['Quarta-feira', 'wednesday', '08:00', '18:00'],
  ['Quinta-feira', 'thursday', '08:00', '18:00'],
  ['Sexta-feira', 'friday', '08:00', '18:00'],
  ['Sábado', 'saturday', '08:00', '12:00'],
  ['Domingo', 'sunday', '00:00', '00:00'],
].map(([weekday, weekdayEn, startTime, endTime]) => ({
  weekday: weekday!,
  weekdayEn: weekdayEn as ScheduleEntry['weekdayEn'],
  startTime: startTime!,
  endTime: endTime!,
}));

async function assertUnique(
  manager: EntityManager,
  name: string,
  email: string | null,
  exceptId = 0,
) {
  const rows: unknown[] = await manager.query(
    'SELECT 1 FROM companies WHERE lower(name) = lower($1) AND id <> $2',
    [name, exceptId],
  );
  if (rows.length) throw new AppError('ERR_COMPANY_NAME_EXISTS');
  if (email) {
    const users: unknown[] = await manager.query(
      'SELECT 1 FROM users WHERE lower(email) = lower($1)',
      [email],
    );
    if (users.length) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  }
}

interface NewCompany {
  name: string;
  email: string;
  phone: string | null;
  planId: number;
  dueDate: string | null;
  recurrence: string;
  status: boolean;
  campaignsEnabled: boolean;
  admin: { name: string; password: string } | null;
}

/** Company + default settings + (optionally) its first admin, in one transaction. */
async function insertCompany(app: AppContext, input: NewCompany): Promise<Company> {
  const passwordHash = input.admin ? await hashPassword(input.admin.password) : null;
  return app.ds.transaction(async (manager) => {
    if (!(await manager.getRepository(PlanEntity).existsBy({ id: input.planId }))) {
      throw new AppError('ERR_NO_PLAN_FOUND');
    }
    await assertUnique(manager, input.name, input.admin ? input.email : null);
    const companies = manager.getRepository(CompanyEntity);
    const company = await companies.save(
      companies.create({
        name: input.name,
        email: input.email,
        phone: input.phone,
        planId: input.planId,
        dueDate: input.dueDate,
        recurrence: input.recurrence,
        status: input.status,
        schedules: DEFAULT_SCHEDULES,
      }),
    );
    await SettingsService.seedDefaults(manager, company.id, {
      campaignsEnabled: String(input.campaignsEnabled),
    });
    if (input.admin && passwordHash) {
      await manager.getRepository(UserEntity).insert({
        companyId: company.id,
        name: input.admin.name,
        email: input.email,
        passwordHash,
        profile: 'admin',
        super: false,
        allTicket: 'enabled',
        tokenVersion: 0,
        online: false,
        resetAttempts: 0,
      });
    }
    return company;
  });
}

/**
 * Public sign-up: the server decides the trial (setting `trial`), recurrence and status; any such
 * values in the request are ignored (a Whaticket hole not to repeat).
 */
export async function signUp(
  app: AppContext,
  body: SignupBody,
  now = new Date(),
): Promise<Company> {
  if ((await app.settings.getGlobal('allowregister')) !== 'enabled') {
    throw new AppError('ERR_REGISTRATION_DISABLED');
  }
  const trialDays = Number(await app.settings.getGlobal('trial'));
  return insertCompany(app, {
    name: body.name,
    email: body.email,
    phone: body.phone,
    planId: body.planId,
    // The trial ends N calendar days from today in the company's (default) time zone.
    dueDate: addLocalDays(now, trialDays),
    recurrence: 'MENSAL',
    status: true,
    campaignsEnabled: true,
    admin: { name: body.name, password: body.password },
  });
}

export function createCompany(app: AppContext, body: CompanyInput): Promise<Company> {
  return insertCompany(app, {
    name: body.name,
    email: body.email,
    phone: body.phone ?? null,
    planId: body.planId,
    dueDate: body.dueDate ?? null,
    recurrence: body.recurrence ?? 'MENSAL',
    status: body.status ?? true,
    campaignsEnabled: body.campaignsEnabled ?? true,
    admin: body.password ? { name: body.name, password: body.password } : null,
  });
}

export async function assertCompanyNameFree(app: AppContext, name: string, exceptId: number) {
  await assertUnique(app.ds.manager, name, null, exceptId);
}
