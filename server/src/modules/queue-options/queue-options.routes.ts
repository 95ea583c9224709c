import { Router } from 'express';
import {
  idParams,
  queueOptionInput,
  queueOptionListQuery,
  queueOptionUpdate,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { route } from '../../http/route.js';
import { mediaUrl } from '../../whatsapp/media.js';
import { receiveFile, removeAttachment, storeAttachment } from '../queues/index.js';
import { QueueOptionEntity, type QueueOption } from './queue-option.entity.js';
import { createOption, optionTree, updateOption } from './queue-options.service.js';

const publicOption = (o: QueueOption) => ({
  ...o,
  mediaUrl: o.mediaPath ? mediaUrl(o.mediaPath) : null,
});

/** `/queue-options`: a queue's chatbot tree (admin §7); parentId -1 is the top level. */
export function queueOptionsRoutes(app: AppContext): Router {
  const router = Router();
  const repoOf = (scope: Parameters<typeof createOption>[0]) =>
    scope.repo(QueueOptionEntity, 'ERR_NO_QUEUE_OPTION_FOUND');

  router.get(
    '/queue-options',
    route(app, { query: queueOptionListQuery }, async ({ scope, query }) =>
      optionTree(scope, query.queueId, query.parentId === -1 ? null : query.parentId),
    ),
  );

  router.get(
    '/queue-options/:id',
    route(app, { params: idParams }, async ({ scope, params }) =>
      publicOption(await repoOf(scope).get(params.id)),
    ),
  );

  router.post(
    '/queue-options',
    route(app, { access: 'admin', body: queueOptionInput, status: 201 }, async ({ scope, body }) =>
      publicOption(await createOption(scope, body)),
    ),
  );

  router.put(
    '/queue-options/:id',
    route(
      app,
      { access: 'admin', params: idParams, body: queueOptionUpdate },
      async ({ scope, params, body }) => publicOption(await updateOption(scope, params.id, body)),
    ),
  );

  router.delete(
    '/queue-options/:id',
    route(app, { access: 'admin', params: idParams }, async ({ scope, params }) => {
      const option = await repoOf(scope).get(params.id);
      await repoOf(scope).delete(params.id);
      await removeAttachment(app, scope.companyId, option.mediaPath);
      return { message: 'Option deleted' };
    }),
  );

  router.post(
    '/queue-options/:id/media-upload',
    route(app, { access: 'admin', params: idParams }, async ({ scope, params, req, res }) => {
      const before = await repoOf(scope).get(params.id);
      const file = await receiveFile(app, req, res);
      const attachment = await storeAttachment(app, scope.companyId, file);
      const option = await repoOf(scope).update(params.id, attachment);
      await removeAttachment(app, scope.companyId, before.mediaPath);
      return { mensagem: 'Arquivo Anexado', option: publicOption(option) };
    }),
  );

  router.delete(
    '/queue-options/:id/media-upload',
    route(app, { access: 'admin', params: idParams }, async ({ scope, params }) => {
      const before = await repoOf(scope).get(params.id);
      const option = await repoOf(scope).update(params.id, { mediaPath: null, mediaName: null });
      await removeAttachment(app, scope.companyId, before.mediaPath);
      return { mensagem: 'Arquivo excluído', option: publicOption(option) };
    }),
  );

  return router;
}
