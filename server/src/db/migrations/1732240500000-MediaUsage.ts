import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bytes of media each company keeps under $DATA_DIR/media (the storage quota). `overQuotaAt`
 * marks when an inbound download, which is never refused, took the company over its quota.
 */
export class MediaUsage1732240500000 implements MigrationInterface {
  name = 'MediaUsage1732240500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE media_usage (
        "companyId" integer PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
        bytes bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0),
        "overQuotaAt" timestamptz,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE media_usage');
  }
}
