import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDataSource, migrate } from '../src/db/data-source.js';
import { adminUrl, databaseUrl } from './db-url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/**
 * Builds one migrated template database per test run; every test file clones it, so each file
 * starts from a fresh schema on the real Postgres.
 */
export default async function setup(project: TestProject) {
  const template = `atende_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const ds = createDataSource(databaseUrl(template), 2);
  await ds.initialize();
  await migrate(ds);
  await ds.destroy();
  project.provide('templateDatabase', template);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
      [`${template}_%`, template],
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
    await admin.end();
  };
}
