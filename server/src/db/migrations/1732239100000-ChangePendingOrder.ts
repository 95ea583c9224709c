import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One order number per writing transaction (drawn when it writes its changes), so the sequencer
 * keeps each transaction's changes together: ids of concurrent inserts interleave.
 */
export class ChangePendingOrder1732239100000 implements MigrationInterface {
  name = 'ChangePendingOrder1732239100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE change_pending ADD COLUMN "txOrder" bigint NOT NULL DEFAULT 0;
      DROP INDEX change_pending_company;
      CREATE INDEX change_pending_company ON change_pending ("companyId", "txOrder", id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX change_pending_company;
      ALTER TABLE change_pending DROP COLUMN "txOrder";
      CREATE INDEX change_pending_company ON change_pending ("companyId", id);
    `);
  }
}
