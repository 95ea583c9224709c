import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 15, super-user tabs: help videos and interface logos. Both are platform-wide (the super
 * user writes them, every company reads them), so neither carries a company id. A logo is kept
 * in Postgres (at most 2 MB, one row per destination), so every API process serves the same
 * bytes without a shared disk.
 */
export class HelpsAndLogos1732242100000 implements MigrationInterface {
  name = 'HelpsAndLogos1732242100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE helps (
        id serial PRIMARY KEY,
        title varchar(100) NOT NULL,
        description text NOT NULL DEFAULT '',
        video varchar(11) NOT NULL CHECK (video ~ '^[A-Za-z0-9_-]{11}$'),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX helps_title ON helps (title);

      CREATE TABLE platform_logos (
        ref varchar(30) PRIMARY KEY CHECK (ref IN ('signup', 'login', 'interno', 'favicon',
          'favicon-256x256', 'apple-touch-icon')),
        mimetype varchar(40) NOT NULL,
        data bytea NOT NULL CHECK (octet_length(data) BETWEEN 1 AND 2097152),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE platform_logos; DROP TABLE helps;');
  }
}
