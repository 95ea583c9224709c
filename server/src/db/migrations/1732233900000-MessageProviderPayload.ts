import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What a provider needs to answer WhatsApp's retry requests for a message we sent. */
export class MessageProviderPayload1732233900000 implements MigrationInterface {
  name = 'MessageProviderPayload1732233900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messages ADD COLUMN "providerPayload" text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messages DROP COLUMN "providerPayload"');
  }
}
