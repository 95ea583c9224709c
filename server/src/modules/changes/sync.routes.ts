import { Router } from 'express';
import { syncEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/route.js';
import { feedViewer, loadViewer } from '../tickets/index.js';
import { mediaBase, withSignedPayload } from '../whatsapps/index.js';
import { readChanges } from './change-log.js';

/** `GET /sync/changes?after=N&limit=`: what a client missed, in order, or `resetRequired`. */
export function syncRoutes(app: AppContext): Router {
  const router = Router();
  serve(router, app, api.changes, async ({ user, query, req }) => {
    const viewer = await loadViewer(app.ds, user.companyId, user.id);
    const feed = await readChanges(
      app.ds,
      user.companyId,
      query.after,
      query.limit,
      feedViewer(viewer),
    );
    if (!('changes' in feed)) return feed;
    const base = mediaBase(app, req);
    return {
      ...feed,
      changes: feed.changes.map((c) => ({
        ...c,
        payload: withSignedPayload(app, user.companyId, c.entity, c.payload, base),
      })),
    };
  });
  return router;
}
