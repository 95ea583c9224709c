import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Changes only some users may read (an internal chat's, for its members): the member ids travel
 * with the row from `change_pending` to `change_log`, where `readChanges` filters by them and the
 * relay routes the socket event to those users' rooms (modules/changes). NULL: not member-bound.
 */
export class ChangeMembers1732243300000 implements MigrationInterface {
  name = 'ChangeMembers1732243300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE change_pending ADD COLUMN "userIds" integer[];
      ALTER TABLE change_log ADD COLUMN "userIds" integer[];
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE change_log DROP COLUMN "userIds";
      ALTER TABLE change_pending DROP COLUMN "userIds";
    `);
  }
}
