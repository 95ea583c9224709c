import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import {
  COMPANY_SETTING_DEFAULTS,
  GLOBAL_SETTING_DEFAULTS,
  type CompanySettingKey,
} from '@atende/shared';
import { SettingEntity, type Setting } from './setting.entity.js';

/** The platform company holds the global settings (allowregister, viewregister, trial). */
export const PLATFORM_COMPANY_ID = 1;

/**
 * Settings are read once per company and cached; a change invalidates the cache in every
 * process through a Redis channel, so hot paths never query them per message.
 */
export class SettingsService {
  private readonly cache = new Map<number, Promise<Setting[]>>();
  private readonly channel: string;

  constructor(
    private readonly ds: DataSource,
    private readonly publisher: Redis,
    prefix: string,
  ) {
    this.channel = `${prefix}:settings-invalidate`;
  }

  /** Subscribes with a dedicated connection (a subscribed Redis connection can do nothing else). */
  async listen(subscriber: Redis): Promise<void> {
    await subscriber.subscribe(this.channel);
    subscriber.on('message', (channel, message) => {
      if (channel === this.channel) this.cache.delete(Number(message));
    });
  }

  list(companyId: number): Promise<Setting[]> {
    let entry = this.cache.get(companyId);
    if (!entry) {
      entry = this.ds
        .getRepository(SettingEntity)
        .find({ where: { companyId }, order: { key: 'ASC' } });
      entry.catch(() => this.cache.delete(companyId));
      this.cache.set(companyId, entry);
    }
    return entry;
  }

  async get(companyId: number, key: string): Promise<string | undefined> {
    return (await this.list(companyId)).find((s) => s.key === key)?.value;
  }

  /** A company setting, or its default when the company never set it. */
  async value(companyId: number, key: CompanySettingKey): Promise<string> {
    return (await this.get(companyId, key)) ?? COMPANY_SETTING_DEFAULTS[key];
  }

  /** Whether a company's switch is on (`enabled`), by its default when never set. */
  async enabled(companyId: number, key: CompanySettingKey): Promise<boolean> {
    return (await this.value(companyId, key)) === 'enabled';
  }

  async getGlobal(key: keyof typeof GLOBAL_SETTING_DEFAULTS): Promise<string> {
    return (await this.get(PLATFORM_COMPANY_ID, key)) ?? GLOBAL_SETTING_DEFAULTS[key];
  }

  async set(companyId: number, key: string, value: string): Promise<Setting> {
    await this.ds.query(
      `INSERT INTO settings ("companyId", key, value) VALUES ($1, $2, $3)
       ON CONFLICT ("companyId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
      [companyId, key, value],
    );
    await this.invalidate(companyId);
    const saved = await this.ds.getRepository(SettingEntity).findOneByOrFail({ companyId, key });
    return saved;
  }

  async invalidate(companyId: number): Promise<void> {
    this.cache.delete(companyId);
    await this.publisher.publish(this.channel, String(companyId));
  }

  /** Writes the default company settings that are missing (on sign-up and at seed). */
  static async seedDefaults(
    db: Pick<DataSource, 'query'>,
    companyId: number,
    extra: Record<string, string> = {},
  ): Promise<void> {
    const values = { ...COMPANY_SETTING_DEFAULTS, ...extra };
    await db.query(
      `INSERT INTO settings ("companyId", key, value)
       SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS t(k, v)
       ON CONFLICT ("companyId", key) DO NOTHING`,
      [companyId, Object.keys(values), Object.values(values)],
    );
  }
}
