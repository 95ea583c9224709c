import { Router } from 'express';
import {
  isGlobalSetting,
  isSettingKey,
  SETTING_VALUES,
  settingBody,
  settingParams,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { PLATFORM_COMPANY_ID } from './settings.service.js';

export function settingsRoutes(app: AppContext): Router {
  const router = Router();

  router.get(
    '/settings',
    route(app, {}, async ({ user }) => app.settings.list(user.companyId)),
  );

  router.get(
    '/settings/:key',
    route(app, { params: settingParams }, async ({ user, params }) => {
      const company = isGlobalSetting(params.key) ? PLATFORM_COMPANY_ID : user.companyId;
      const value = await app.settings.get(company, params.key);
      if (value === undefined) throw new AppError('ERR_NO_SETTING_FOUND');
      return { key: params.key, value };
    }),
  );

  router.put(
    '/settings/:key',
    route(
      app,
      { access: 'admin', params: settingParams, body: settingBody },
      async ({ user, params, body }) => {
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
        const setting = await app.settings.set(companyId, params.key, parsed.data);
        app.realtime.toCompany(companyId, 'settings', { action: 'update', setting });
        return setting;
      },
    ),
  );

  return router;
}
