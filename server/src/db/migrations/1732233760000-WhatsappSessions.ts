import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fencing epoch of a connection's session lease: a worker writes session state only while
 * the row carries its epoch, so a worker that lost the lease cannot overwrite the new holder.
 */
export class WhatsappSessions1732233760000 implements MigrationInterface {
  name = 'WhatsappSessions1732233760000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapps ADD COLUMN "sessionEpoch" bigint NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapps DROP COLUMN "sessionEpoch"`);
  }
}
