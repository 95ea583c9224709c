import { Router } from 'express';
import { type CompanyEventPayload, queueEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/route.js';
import { QueueEntity } from './queue.entity.js';
import { createQueue, listQueues, publicQueue, updateQueue } from './queues.service.js';
import { receiveFile, removeAttachment, storeAttachment } from './upload.js';

/** `/queue` CRUD and its attachment (admin §7); every change is a company-{id}-queue event. */
export function queuesRoutes(app: AppContext): Router {
  const router = Router();
  const emit = (companyId: number, payload: CompanyEventPayload<'queue'>) =>
    app.realtime.toCompany(companyId, 'queue', payload);

  serve(router, app, api.listQueues, async ({ scope }) =>
    (await listQueues(scope)).map(publicQueue),
  );

  serve(router, app, api.showQueue, async ({ scope, params }) =>
    publicQueue(await scope.repo(QueueEntity, 'ERR_NO_QUEUE_FOUND').get(params.id)),
  );

  serve(router, app, api.createQueue, async ({ scope, body }) => {
    const queue = publicQueue(await createQueue(app, scope, body));
    emit(scope.companyId, { action: 'create', queue });
    return queue;
  });

  serve(router, app, api.updateQueue, async ({ scope, params, body }) => {
    const queue = publicQueue(await updateQueue(scope, params.id, body));
    emit(scope.companyId, { action: 'update', queue });
    return queue;
  });

  serve(router, app, api.deleteQueue, async ({ scope, params }) => {
    const repo = scope.repo(QueueEntity, 'ERR_NO_QUEUE_FOUND');
    const queue = await repo.get(params.id);
    await repo.delete(params.id);
    await removeAttachment(app, scope.companyId, queue.mediaPath);
    emit(scope.companyId, { action: 'delete', queueId: params.id });
    return { message: 'Queue deleted' };
  });

  serve(router, app, api.attachQueueMedia, async ({ scope, params, req, res }) => {
    const repo = scope.repo(QueueEntity, 'ERR_NO_QUEUE_FOUND');
    const before = await repo.get(params.id);
    const file = await receiveFile(app, req, res);
    const attachment = await storeAttachment(app, scope.companyId, file);
    const queue = publicQueue(await repo.update(params.id, attachment));
    await removeAttachment(app, scope.companyId, before.mediaPath);
    emit(scope.companyId, { action: 'update', queue });
    return { mensagem: 'Arquivo Anexado', queue };
  });

  serve(router, app, api.removeQueueMedia, async ({ scope, params }) => {
    const repo = scope.repo(QueueEntity, 'ERR_NO_QUEUE_FOUND');
    const before = await repo.get(params.id);
    const queue = publicQueue(await repo.update(params.id, { mediaPath: null, mediaName: null }));
    await removeAttachment(app, scope.companyId, before.mediaPath);
    emit(scope.companyId, { action: 'update', queue });
    return { mensagem: 'Arquivo excluído', queue };
  });

  return router;
}
