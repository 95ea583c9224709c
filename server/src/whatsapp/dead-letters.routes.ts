// The dead letters of a connection: session events that could not be handled (whatsapp/inbox.ts),
// kept so an admin can see what a customer sent that the platform could not store.
import { Router } from 'express';
import { whatsappEndpoints as api } from '@atende/shared';
import { LessThan } from 'typeorm';
import type { AppContext } from '../context.js';
import { serve } from '../http/route.js';
import { WhatsappEntity } from '../modules/whatsapps/index.js';
import { DeadLetterEntity } from './dead-letter.entity.js';

export function deadLettersRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.deadLetters, async ({ scope, params, query }) => {
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
  });

  return router;
}
