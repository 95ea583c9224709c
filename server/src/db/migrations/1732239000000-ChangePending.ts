import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Changes wait here, unnumbered, from the writer's commit until the sequencer moves them into
 * change_log with the company's next numbers (modules/changes/sequencer.ts). Writers no longer
 * hold the company's counter row through their commit.
 */
export class ChangePending1732239000000 implements MigrationInterface {
  name = 'ChangePending1732239000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE change_pending (
        id bigserial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        entity varchar(20) NOT NULL,
        "entityId" integer NOT NULL,
        action varchar(20) NOT NULL,
        "ticketBound" boolean NOT NULL DEFAULT false,
        "queueId" integer,
        payload jsonb NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX change_pending_company ON change_pending ("companyId", id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE change_pending');
  }
}
