import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Config } from './config.js';
import type { Mailer } from './mail/mailer.js';
import type { AppHooks } from './modules/manifest.js';
import type { Realtime } from './realtime/emitter.js';
import type { SettingsService } from './modules/settings/index.js';

/** What every module receives: configuration and the shared connections. No globals. */
export interface AppContext {
  config: Config;
  ds: DataSource;
  redis: Redis;
  realtime: Realtime;
  mailer: Mailer;
  settings: SettingsService;
  /** Redis key prefix of this deployment (tests run many side by side). */
  prefix: string;
  /** The modules' listeners and domain-event consumers, in module order (`modules/index.ts`). */
  hooks: AppHooks;
}
