// The dead letters of a connection: session events that could not be handled (whatsapp/inbox.ts),
// kept so an admin can see what a customer sent that the platform could not store.
import { Router } from 'express';
import { idSchema } from '@atende/shared';
import { LessThan } from 'typeorm';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { route } from '../http/route.js';
import { WhatsappEntity } from '../modules/whatsapps/index.js';
import { DeadLetterEntity } from './dead-letter.entity.js';

const params = z.object({ whatsappId: idSchema });
const query = z.object({
  /** Only letters older than this one (the last id of the previous page). */
  before: idSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export function deadLettersRoutes(app: AppContext): Router {
  const router = Router();

  router.get(
    '/whatsapp/:whatsappId/dead-letters',
    route(app, { access: 'admin', params, query }, async ({ scope, params, query }) => {
      // Another company's connection is not found, as everywhere else.
      await scope.repo(WhatsappEntity, 'ERR_NO_WAPP_FOUND').get(params.whatsappId);
      const rows = await scope.repo(DeadLetterEntity).find(
        {
          whatsappId: params.whatsappId,
          ...(query.before !== undefined && { id: LessThan(query.before) }),
        },
        { order: { id: 'DESC' }, take: query.limit + 1 },
      );
      const page = rows.slice(0, query.limit);
      return {
        deadLetters: page.map(({ companyId: _companyId, ...row }) => row),
        hasMore: rows.length > query.limit,
      };
    }),
  );

  return router;
}
