import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { GLOBAL_SETTING_DEFAULTS } from '@atende/shared';
import type { Config } from '../config.js';
import { logger } from '../logger.js';
import { addDays } from '../modules/companies/index.js';
import { PLATFORM_COMPANY_ID, SettingsService } from '../modules/settings/index.js';
import { hashPassword } from '../modules/users/index.js';

export interface SeededSuperUser {
  email: string;
  password: string;
  /** True when ADMIN_PASSWORD was unset (production) and the password was generated here. */
  generated: boolean;
}

/**
 * On an empty database: the platform company, its super user, a default plan with every flag on,
 * and the default settings. Runs in one transaction and does nothing (answers null) once a
 * company exists. Without ADMIN_PASSWORD (production) the super user gets a random password,
 * answered here so the caller prints it once.
 */
export async function seed(ds: DataSource, config: Config): Promise<SeededSuperUser | null> {
  const generated = config.ADMIN_PASSWORD === undefined;
  const password = config.ADMIN_PASSWORD ?? randomBytes(18).toString('base64url');
  const passwordHash = await hashPassword(password);
  return ds.transaction(async (manager) => {
    await manager.query('LOCK TABLE companies IN EXCLUSIVE MODE');
    const [{ n }] = (await manager.query('SELECT count(*)::int AS n FROM companies')) as [
      { n: number },
    ];
    if (n > 0) return null;
    const [plan] = (await manager.query(
      `INSERT INTO plans (name, users, connections, queues, value) VALUES ('Plano 1', 10, 10, 10, 0)
       RETURNING id`,
    )) as [{ id: number }];
    await manager.query(
      `INSERT INTO companies (id, name, email, "planId", status, "dueDate", recurrence)
       VALUES ($1, 'Empresa 1', $2, $3, true, $4, 'MENSAL')`,
      [PLATFORM_COMPANY_ID, config.ADMIN_EMAIL, plan!.id, addDays(new Date(), 365 * 100)],
    );
    await manager.query(`SELECT setval('companies_id_seq', (SELECT max(id) FROM companies))`);
    await manager.query(
      `INSERT INTO users ("companyId", name, email, "passwordHash", profile, super, "allTicket")
       VALUES ($1, 'Admin', $2, $3, 'admin', true, 'enabled')`,
      [PLATFORM_COMPANY_ID, config.ADMIN_EMAIL, passwordHash],
    );
    await SettingsService.seedDefaults(manager, PLATFORM_COMPANY_ID, {
      ...GLOBAL_SETTING_DEFAULTS,
    });
    logger.info('seeded the platform company, super user and default plan');
    return { email: config.ADMIN_EMAIL, password, generated };
  });
}
