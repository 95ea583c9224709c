// Per-company settings (cache, secrets).
import { SettingEntity } from './setting.entity.js';
import { settingsRoutes } from './settings.routes.js';
import { defineModule } from '../manifest.js';

export const settingsModule = defineModule({
  name: 'settings',
  entities: [SettingEntity],
  routers: [settingsRoutes],
});

// What other modules use (they import this module only through this file).
export { integrationSecret, visibleSettings } from './secrets.js';
export { PLATFORM_COMPANY_ID, SettingsService } from './settings.service.js';
