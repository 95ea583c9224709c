import { Router } from 'express';
import { helpEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { pageOf } from '../../http/paging.js';
import { serve } from '../../http/route.js';
import { HelpEntity } from './help.entity.js';

/**
 * Help videos (administration §7). They are the platform's, not a company's: every signed-in
 * user reads them (the /helps page), only the super user writes them (`access: 'super'`).
 */
export function helpsRoutes(app: AppContext): Router {
  const router = Router();
  const helps = () => app.ds.getRepository(HelpEntity);
  const getHelp = async (id: number) => {
    const help = await helps().findOneBy({ id });
    if (!help) throw new AppError('ERR_NO_HELP_FOUND');
    return help;
  };

  serve(router, app, api.helpList, async () => helps().find({ order: { id: 'ASC' } }));

  serve(router, app, api.listHelps, async ({ query }) => {
    const qb = helps().createQueryBuilder('h').orderBy('h.title', 'ASC').addOrderBy('h.id', 'ASC');
    if (query.searchParam) qb.where('h.title ILIKE :s', { s: `%${query.searchParam}%` });
    const { rows, count, hasMore } = await pageOf(qb, query.pageNumber);
    return { records: rows, count, hasMore };
  });

  serve(router, app, api.showHelp, async ({ params }) => getHelp(params.id));

  serve(router, app, api.createHelp, async ({ body }) => helps().save(helps().create(body)));

  serve(router, app, api.updateHelp, async ({ params, body }) => {
    const help = await getHelp(params.id);
    if (body.title !== undefined) help.title = body.title;
    if (body.description !== undefined && body.description !== null)
      help.description = body.description;
    if (body.video !== undefined) help.video = body.video;
    return helps().save(help);
  });

  serve(router, app, api.deleteHelp, async ({ params }) => {
    await getHelp(params.id);
    await helps().delete({ id: params.id });
    return { message: 'ok' };
  });

  return router;
}
