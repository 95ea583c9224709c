import { Router } from 'express';
import {
  isGlobalSetting,
  isSecretSetting,
  isSettingKey,
  logoEndpoints,
  SETTING_VALUES,
  settingEndpoints as api,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { listLogos, sendLogo, uploadLogo } from './logos.js';
import { maskSecret, openSetting, sealSetting, seesSecrets, visibleSettings } from './secrets.js';
import { PLATFORM_COMPANY_ID } from './settings.service.js';

export function settingsRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.listSettings, async ({ user }) =>
    visibleSettings(user, await app.settings.list(user.companyId), app),
  );

  serve(router, app, api.showSetting, async ({ user, params }) => {
    const company = isGlobalSetting(params.key) ? PLATFORM_COMPANY_ID : user.companyId;
    const value = await app.settings.get(company, params.key);
    if (value === undefined) throw new AppError('ERR_NO_SETTING_FOUND');
    if (!isSecretSetting(params.key)) return { key: params.key, value };
    if (!seesSecrets(user)) throw new AppError('ERR_NO_PERMISSION');
    return { key: params.key, value: maskSecret(openSetting(app, company, params.key, value)) };
  });

  serve(router, app, api.updateSetting, async ({ user, params, body }) => {
    if (!isSettingKey(params.key)) throw new AppError('ERR_NO_SETTING_FOUND');
    const global = isGlobalSetting(params.key);
    if (global && !user.super) throw new AppError('ERR_NO_PERMISSION');
    const parsed = SETTING_VALUES[params.key].safeParse(body.value);
    if (!parsed.success) {
      throw new AppError('ERR_VALIDATION', {
        details: [{ path: 'body.value', message: 'invalid value' }],
      });
    }
    const companyId = global ? PLATFORM_COMPANY_ID : user.companyId;
    if (!isSecretSetting(params.key)) {
      const setting = await app.settings.set(companyId, params.key, parsed.data);
      app.realtime.toCompany(companyId, 'settings', { action: 'update', setting });
      return setting;
    }
    // Write-only and sealed at rest: the masked value a client shows, sent back unchanged, keeps
    // the secret.
    const stored = (await app.settings.get(companyId, params.key)) ?? '';
    const current = openSetting(app, companyId, params.key, stored);
    const plain = current !== '' && parsed.data === maskSecret(current) ? current : parsed.data;
    const saved = await app.settings.set(
      companyId,
      params.key,
      sealSetting(app, companyId, params.key, plain),
    );
    const setting = { ...saved, value: maskSecret(plain) };
    app.realtime.toCompanyAdmins(companyId, 'settings', { action: 'update', setting });
    return setting;
  });

  // Interface logos (admin §2 Logo tab): the super user uploads; anyone reads (no session).
  serve(router, app, logoEndpoints.uploadLogo, async ({ query, req, res }) =>
    uploadLogo(app, req, res, query.ref),
  );
  serve(router, app, logoEndpoints.listLogos, async () => listLogos(app));
  serve(router, app, logoEndpoints.showLogo, async ({ params, res }) => {
    await sendLogo(app, res, params.ref);
    return undefined;
  });

  return router;
}
