import { Router } from 'express';
import { planEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { pageOf } from '../../http/paging.js';
import { serve } from '../../http/route.js';
import { PlanEntity, type Plan } from './plan.entity.js';

/** The money value is numeric in Postgres; clients get a number. */
export const publicPlan = (plan: Plan) => ({ ...plan, value: Number(plan.value) });

export function plansRoutes(app: AppContext): Router {
  const router = Router();
  const plans = () => app.ds.getRepository(PlanEntity);
  const getPlan = async (id: number) => {
    const plan = await plans().findOneBy({ id });
    if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
    return plan;
  };

  // `/plans/all` is what the Whaticket sign-up page calls; both answer every plan, no login.
  for (const endpoint of [api.planList, api.planAll]) {
    serve(router, app, endpoint, async () =>
      (await plans().find({ order: { id: 'ASC' } })).map(publicPlan),
    );
  }

  serve(router, app, api.listPlans, async ({ query }) => {
    const qb = plans().createQueryBuilder('p').orderBy('p.name', 'ASC');
    if (query.searchParam) qb.where('p.name ILIKE :s', { s: `%${query.searchParam}%` });
    const { rows, count, hasMore } = await pageOf(qb, query.pageNumber);
    return { plans: rows.map(publicPlan), count, hasMore };
  });

  serve(router, app, api.showPlan, async ({ params }) => publicPlan(await getPlan(params.id)));

  serve(router, app, api.createPlan, async ({ body }) => {
    if (await plans().existsBy({ name: body.name }))
      throw new AppError('ERR_VALIDATION', { details: 'name' });
    return publicPlan(await plans().save(plans().create({ ...body, value: String(body.value) })));
  });

  serve(router, app, api.updatePlan, async ({ params, body }) => {
    const plan = await getPlan(params.id);
    // Names are unique: another plan's name is refused like in POST (not a 500 from the index).
    if (body.name && body.name !== plan.name && (await plans().existsBy({ name: body.name })))
      throw new AppError('ERR_VALIDATION', { details: 'name' });
    const { value, ...rest } = body;
    Object.assign(plan, rest, value === undefined ? {} : { value: String(value) });
    return publicPlan(await plans().save(plan));
  });

  serve(router, app, api.deletePlan, async ({ params }) => {
    await getPlan(params.id);
    const [{ used }] = (await app.ds.query(
      'SELECT count(*)::int AS used FROM companies WHERE "planId" = $1',
      [params.id],
    )) as [{ used: number }];
    if (used > 0) throw new AppError('ERR_PLAN_IN_USE');
    await plans().delete({ id: params.id });
    return { message: 'ok' };
  });

  return router;
}
