import { promptEndpoints as api } from '@atende/shared';
import { Router } from 'express';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/route.js';
import {
  createPrompt,
  deletePrompt,
  getPrompt,
  loadPrompts,
  promptView,
  updatePrompt,
} from './prompts.service.js';
import { monthUsage } from './usage.js';

/** Prompts (secondary §7): admins only, behind the plan's useOpenAi; keys never answered. */
export function promptsRoutes(app: AppContext): Router {
  const router = Router();
  const emit = (
    companyId: number,
    action: 'create' | 'update',
    prompt: ReturnType<typeof promptView>,
  ) => app.realtime.toCompanyAdmins(companyId, 'prompt', { action, prompt });

  serve(router, app, api.listPrompts, async ({ scope, query }) => {
    const term =
      typeof query.searchParam === 'string' ? query.searchParam.trim().toLowerCase() : '';
    const rows = await loadPrompts(app.ds, scope.companyId);
    return {
      prompts: rows.filter((p) => !term || p.name.toLowerCase().includes(term)).map(promptView),
      hasMore: false,
    };
  });

  serve(router, app, api.promptUsage, ({ scope }) => monthUsage(app, scope.companyId));

  serve(router, app, api.showPrompt, async ({ scope, params }) =>
    promptView(await getPrompt(app.ds, scope.companyId, params.id)),
  );

  serve(router, app, api.createPrompt, async ({ scope, body }) => {
    const prompt = promptView(await createPrompt(app, scope.companyId, body));
    emit(scope.companyId, 'create', prompt);
    return prompt;
  });

  serve(router, app, api.updatePrompt, async ({ scope, params, body }) => {
    const prompt = promptView(await updatePrompt(app, scope.companyId, params.id, body));
    emit(scope.companyId, 'update', prompt);
    return prompt;
  });

  serve(router, app, api.deletePrompt, async ({ scope, params }) => {
    await deletePrompt(app, scope.companyId, params.id);
    app.realtime.toCompanyAdmins(scope.companyId, 'prompt', {
      action: 'delete',
      promptId: params.id,
    });
    return { message: 'Prompt deleted' };
  });

  return router;
}
