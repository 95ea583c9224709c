import { Router } from 'express';
import { idParams, pageQuery, planInput, planUpdate } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { pageOf } from '../../http/paging.js';
import { route } from '../../http/route.js';
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
  for (const path of ['/plans/list', '/plans/all']) {
    router.get(
      path,
      route(app, { access: 'public' }, async () =>
        (await plans().find({ order: { id: 'ASC' } })).map(publicPlan),
      ),
    );
  }

  router.get(
    '/plans',
    route(app, { access: 'super', query: pageQuery }, async ({ query }) => {
      const qb = plans().createQueryBuilder('p').orderBy('p.name', 'ASC');
      if (query.searchParam) qb.where('p.name ILIKE :s', { s: `%${query.searchParam}%` });
      const { rows, count, hasMore } = await pageOf(qb, query.pageNumber);
      return { plans: rows.map(publicPlan), count, hasMore };
    }),
  );

  router.get(
    '/plans/:id',
    route(app, { access: 'super', params: idParams }, async ({ params }) =>
      publicPlan(await getPlan(params.id)),
    ),
  );

  router.post(
    '/plans',
    route(app, { access: 'super', body: planInput, status: 201 }, async ({ body }) => {
      if (await plans().existsBy({ name: body.name }))
        throw new AppError('ERR_VALIDATION', { details: 'name' });
      return publicPlan(await plans().save(plans().create({ ...body, value: String(body.value) })));
    }),
  );

  router.put(
    '/plans/:id',
    route(
      app,
      { access: 'super', params: idParams, body: planUpdate },
      async ({ params, body }) => {
        const plan = await getPlan(params.id);
        // Names are unique: another plan's name is refused like in POST (not a 500 from the index).
        if (body.name && body.name !== plan.name && (await plans().existsBy({ name: body.name })))
          throw new AppError('ERR_VALIDATION', { details: 'name' });
        const { value, ...rest } = body;
        Object.assign(plan, rest, value === undefined ? {} : { value: String(value) });
        return publicPlan(await plans().save(plan));
      },
    ),
  );

  router.delete(
    '/plans/:id',
    route(app, { access: 'super', params: idParams }, async ({ params }) => {
      await getPlan(params.id);
      const [{ used }] = (await app.ds.query(
        'SELECT count(*)::int AS used FROM companies WHERE "planId" = $1',
        [params.id],
      )) as [{ used: number }];
      if (used > 0) throw new AppError('ERR_PLAN_IN_USE');
      await plans().delete({ id: params.id });
      return { message: 'ok' };
    }),
  );

  return router;
}
