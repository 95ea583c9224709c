import { Router } from 'express';
import { companyEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { pageOf } from '../../http/paging.js';
import { serve } from '../../http/route.js';
import { beforeSignUp } from '../auth/index.js';
import type { AuthUser } from '../auth/index.js';
import { refreshCompanySockets } from '../../realtime/revoke.js';
import { PlanEntity } from '../plans/index.js';
import { publicPlan } from '../plans/index.js';
import { visibleSettings } from '../settings/index.js';
import { PLATFORM_COMPANY_ID } from '../settings/index.js';
import { assertCompanyNameFree, createCompany, signUp } from './companies.service.js';
import { CompanyEntity, type Company } from './company.entity.js';

export function companiesRoutes(app: AppContext): Router {
  const router = Router();
  const companies = () => app.ds.getRepository(CompanyEntity);

  /** The company with its settings as `viewer` may read them (secrets masked or left out). */
  const withSettings = async (viewer: AuthUser, company: Company) => ({
    ...company,
    settings: visibleSettings(viewer, await app.settings.list(company.id), app).map(
      ({ key, value }) => ({ key, value }),
    ),
  });

  /** The super user reaches every company; anyone else only their own — others do not exist. */
  const visibleCompany = async (user: AuthUser, id: number): Promise<Company> => {
    const company =
      user.super || user.companyId === id ? await companies().findOneBy({ id }) : null;
    if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
    return company;
  };
  /** Changing a company is for the super user; another company is still "not found" to others. */
  const changeableCompany = async (user: AuthUser, id: number): Promise<Company> => {
    const company = await visibleCompany(user, id);
    if (!user.super) throw new AppError('ERR_NO_PERMISSION');
    return company;
  };

  serve(router, app, api.signUp, async ({ body, req, res }) => {
    // Counted before any work (a sign-up hashes a password and writes a company).
    await beforeSignUp(app, res, req.ip ?? 'unknown');
    const company = await signUp(app, body);
    return { id: company.id, name: company.name, dueDate: company.dueDate };
  });

  serve(router, app, api.listPlanOfCompany, async ({ user, params }) => {
    const company = await visibleCompany(user, params.companyId);
    const plan = company.planId
      ? await app.ds.getRepository(PlanEntity).findOneBy({ id: company.planId })
      : null;
    return { id: company.id, name: company.name, plan: plan ? publicPlan(plan) : null };
  });

  serve(router, app, api.companyList, async ({ user }) => {
    // Each row carries its plan {id, name, value}, as the Whaticket companies table reads it.
    const plans = new Map(
      (await app.ds.getRepository(PlanEntity).find()).map((p) => [
        p.id,
        { id: p.id, name: p.name, value: Number(p.value) },
      ]),
    );
    const rows = await companies().find({ order: { name: 'ASC' } });
    return Promise.all(
      rows.map(async (c) => ({
        ...(await withSettings(user, c)),
        plan: (c.planId && plans.get(c.planId)) || null,
      })),
    );
  });

  serve(router, app, api.listCompanies, async ({ query }) => {
    const qb = companies().createQueryBuilder('c');
    if (query.searchParam) {
      qb.where('(c.name ILIKE :s OR c.email ILIKE :s OR c.phone ILIKE :s)', {
        s: `%${query.searchParam}%`,
      });
    }
    const { rows, count, hasMore } = await pageOf(qb.orderBy('c.name', 'ASC'), query.pageNumber);
    return { companies: rows, count, hasMore };
  });

  serve(router, app, api.showCompany, async ({ user, params }) =>
    withSettings(user, await visibleCompany(user, params.id)),
  );

  serve(router, app, api.createCompany, async ({ body }) => createCompany(app, body));

  serve(router, app, api.updateCompany, async ({ user, params, body }) => {
    const company = await changeableCompany(user, params.id);
    const { campaignsEnabled, password: _password, ...fields } = body;
    if (fields.name) await assertCompanyNameFree(app, fields.name, company.id);
    if (
      fields.planId &&
      !(await app.ds.getRepository(PlanEntity).existsBy({ id: fields.planId }))
    ) {
      throw new AppError('ERR_NO_PLAN_FOUND');
    }
    Object.assign(company, fields);
    const saved = await companies().save(company);
    await refreshCompanySockets(app, company.id);
    if (campaignsEnabled !== undefined) {
      await app.settings.set(company.id, 'campaignsEnabled', String(campaignsEnabled));
    }
    app.realtime.toCompany(company.id, 'company', { action: 'update', company: saved });
    return withSettings(user, saved);
  });

  serve(router, app, api.updateSchedules, async ({ user, params, body }) => {
    const company = await visibleCompany(user, params.id);
    company.schedules = body.schedules;
    const saved = await companies().save(company);
    app.realtime.toCompany(company.id, 'company', { action: 'update', company: saved });
    return saved;
  });

  serve(router, app, api.deleteCompany, async ({ user, params }) => {
    const company = await changeableCompany(user, params.id);
    if (company.id === PLATFORM_COMPANY_ID)
      throw new AppError('ERR_CANNOT_DELETE_PLATFORM_COMPANY');
    await companies().delete({ id: company.id });
    await refreshCompanySockets(app, company.id);
    return { message: 'ok' };
  });

  return router;
}
