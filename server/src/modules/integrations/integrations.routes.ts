import { Router } from 'express';
import { queueIntegrationEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { pageOf } from '../../http/paging.js';
import { serve } from '../../http/route.js';
import type { TenantScope } from '../../http/tenant.js';
import { dialogflow } from '../automation/index.js';
import { deliveryView, listDeliveries, replayDelivery } from './deliveries.js';
import { QueueIntegrationEntity, type QueueIntegration } from './integration.entity.js';
import {
  dialogflowClient,
  dialogflowClientOf,
  failureAppError,
  integrationView,
  newSigningSecret,
  prepareIntegration,
} from './integrations.service.js';

export function integrationsRoutes(app: AppContext): Router {
  const router = Router();
  const repo = (scope: TenantScope) =>
    scope.repo(QueueIntegrationEntity, 'ERR_NO_INTEGRATION_FOUND');
  const emit = (
    companyId: number,
    action: 'create' | 'update' | 'delete',
    row: QueueIntegration | { id: number },
  ) =>
    app.realtime.toCompanyAdmins(companyId, 'queueIntegration', {
      action,
      ...('type' in row ? { queueIntegration: integrationView(row) } : {}),
      integrationId: row.id,
    });

  serve(router, app, api.listQueueIntegrations, async ({ scope, query }) => {
    const qb = repo(scope).query('i');
    if (query.searchParam)
      qb.andWhere('lower(i.name) LIKE :s', { s: `%${query.searchParam.toLowerCase()}%` });
    qb.orderBy('lower(i.name)', 'ASC').addOrderBy('i.id', 'ASC');
    const page = await pageOf(qb, query.pageNumber);
    return {
      queueIntegrations: page.rows.map(integrationView),
      count: page.count,
      hasMore: page.hasMore,
    };
  });

  serve(router, app, api.testSession, async ({ scope, body }) => {
    const language = body.language ?? 'pt-BR';
    let client;
    let projectId: string;
    const pasted = body.jsonContent?.trim();
    if (pasted) {
      const account = dialogflow.parseServiceAccount(pasted);
      if (!account.ok) throw failureAppError(account);
      projectId = account.value.projectId;
      client = dialogflowClient(app, pasted, language);
    } else if (body.id) {
      const row = await repo(scope).get(body.id);
      if (row.type !== 'dialogflow') throw new AppError('ERR_INTEGRATION_JSON_REQUIRED');
      projectId = row.projectId ?? '';
      client = dialogflowClientOf(app, { ...row, language });
    } else throw new AppError('ERR_INTEGRATION_JSON_REQUIRED');
    if (!client.ok) throw failureAppError(client);
    const checked = await client.value.check();
    if (!checked.ok) throw failureAppError(checked);
    return {
      message: 'ok',
      projectId,
      intent: checked.value.intent,
      texts: checked.value.texts,
    };
  });

  serve(router, app, api.listDeliveries, async ({ scope, query }) => {
    const page = await listDeliveries(app, scope.companyId, query);
    return { deliveries: page.rows.map(deliveryView), hasMore: page.hasMore };
  });

  serve(router, app, api.replayDelivery, async ({ scope, params }) =>
    deliveryView(await replayDelivery(app, scope.companyId, params.id)),
  );

  serve(router, app, api.showQueueIntegration, async ({ scope, params }) =>
    integrationView(await repo(scope).get(params.id)),
  );

  serve(router, app, api.createQueueIntegration, async ({ scope, body }) => {
    const { columns, webhookSecret } = await prepareIntegration(app, scope.companyId, body);
    const row = await repo(scope).create(columns);
    emit(scope.companyId, 'create', row);
    return { ...integrationView(row), ...(webhookSecret ? { webhookSecret } : {}) };
  });

  serve(router, app, api.updateQueueIntegration, async ({ scope, params, body }) => {
    const before = await repo(scope).get(params.id);
    const { columns } = await prepareIntegration(app, scope.companyId, body, before);
    const row = await repo(scope).update(params.id, columns);
    emit(scope.companyId, 'update', row);
    return integrationView(row);
  });

  serve(router, app, api.rotateQueueIntegrationSecret, async ({ scope, params }) => {
    const before = await repo(scope).get(params.id);
    if (before.type !== 'n8n' && before.type !== 'webhook')
      throw new AppError('ERR_INTEGRATION_NO_SECRET');
    const secret = newSigningSecret(app, scope.companyId);
    const row = await repo(scope).update(params.id, {
      webhookSecretSealed: secret.sealed,
      webhookSecretLast4: secret.last4,
    });
    emit(scope.companyId, 'update', row);
    return { ...integrationView(row), webhookSecret: secret.plain };
  });

  serve(router, app, api.deleteQueueIntegration, async ({ scope, params }) => {
    await repo(scope).delete(params.id);
    emit(scope.companyId, 'delete', { id: params.id });
    return { message: 'Integration deleted' };
  });

  return router;
}
