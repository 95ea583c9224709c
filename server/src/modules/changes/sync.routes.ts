import { Router } from 'express';
import { syncQuery } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { route } from '../../http/route.js';
import { feedViewer, loadViewer } from '../tickets/visibility.js';
import { readChanges } from './change-log.js';
import './prune.js';

/** `GET /sync/changes?after=N&limit=`: what a client missed, in order, or `resetRequired`. */
export function syncRoutes(app: AppContext): Router {
  const router = Router();
  router.get(
    '/sync/changes',
    route(app, { query: syncQuery }, async ({ user, query }) => {
      const viewer = await loadViewer(app.ds, user.companyId, user.id);
      return readChanges(app.ds, user.companyId, query.after, query.limit, feedViewer(viewer));
    }),
  );
  return router;
}
