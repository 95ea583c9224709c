import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDataSource } from '../src/db/data-source.js';
import { seed } from '../src/db/seed.js';
import { verifyPassword } from '../src/modules/users/users.service.js';
import { databaseUrl } from './db-url.js';
import { dropDatabase, freshDatabase } from './harness.js';

const secrets = {
  JWT_SECRET: 'a-production-secret-long-enough',
  JWT_REFRESH_SECRET: 'another-production-secret-long',
};
const databases: string[] = [];
afterAll(async () => {
  for (const name of databases) await dropDatabase(name);
});

describe('the seeded super user in production (issue 11 item 6)', () => {
  it('refuses the development password as ADMIN_PASSWORD', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', ADMIN_PASSWORD: 'admin123', ...secrets }),
    ).toThrow(/ADMIN_PASSWORD/);
    expect(loadConfig({ NODE_ENV: 'development' }).ADMIN_PASSWORD).toBe('admin123');
  });

  it('without ADMIN_PASSWORD gets a generated password, answered once, never admin123', async () => {
    const config = loadConfig({ NODE_ENV: 'production', ...secrets });
    expect(config.ADMIN_PASSWORD).toBeUndefined();
    const name = await freshDatabase();
    databases.push(name);
    const ds = createDataSource(databaseUrl(name), 2);
    await ds.initialize();
    try {
      const seeded = await seed(ds, config);
      expect(seeded).toMatchObject({ email: config.ADMIN_EMAIL, generated: true });
      expect(seeded!.password.length).toBeGreaterThanOrEqual(20);
      const [row] = (await ds.query(
        'SELECT "passwordHash" FROM users WHERE super AND lower(email) = lower($1)',
        [config.ADMIN_EMAIL],
      )) as [{ passwordHash: string }];
      expect(await verifyPassword(row.passwordHash, 'admin123')).toBe(false);
      expect(await verifyPassword(row.passwordHash, seeded!.password)).toBe(true);
      // Seeded once: a second start neither seeds nor prints a password again.
      expect(await seed(ds, config)).toBeNull();
    } finally {
      await ds.destroy();
    }
  });
});
