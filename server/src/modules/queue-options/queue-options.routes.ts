import { Router } from 'express';
import { queueOptionEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/route.js';
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

  serve(router, app, api.listQueueOptions, async ({ scope, query }) =>
    optionTree(scope, query.queueId, query.parentId === -1 ? null : query.parentId),
  );

  serve(router, app, api.showQueueOption, async ({ scope, params }) =>
    publicOption(await repoOf(scope).get(params.id)),
  );

  serve(router, app, api.createQueueOption, async ({ scope, body }) =>
    publicOption(await createOption(scope, body)),
  );

  serve(router, app, api.updateQueueOption, async ({ scope, params, body }) =>
    publicOption(await updateOption(scope, params.id, body)),
  );

  serve(router, app, api.deleteQueueOption, async ({ scope, params }) => {
    const option = await repoOf(scope).get(params.id);
    await repoOf(scope).delete(params.id);
    await removeAttachment(app, scope.companyId, option.mediaPath);
    return { message: 'Option deleted' };
  });

  serve(router, app, api.attachQueueOptionMedia, async ({ scope, params, req, res }) => {
    const before = await repoOf(scope).get(params.id);
    const file = await receiveFile(app, req, res);
    const attachment = await storeAttachment(app, scope.companyId, file);
    const option = await repoOf(scope).update(params.id, attachment);
    await removeAttachment(app, scope.companyId, before.mediaPath);
    return { mensagem: 'Arquivo Anexado', option: publicOption(option) };
  });

  serve(router, app, api.removeQueueOptionMedia, async ({ scope, params }) => {
    const before = await repoOf(scope).get(params.id);
    const option = await repoOf(scope).update(params.id, { mediaPath: null, mediaName: null });
    await removeAttachment(app, scope.companyId, before.mediaPath);
    return { mensagem: 'Arquivo excluído', option: publicOption(option) };
  });

  return router;
}
