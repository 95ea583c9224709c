import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scheduled messages (issue 17): the row is the record of a schedule; its firing is a durable job
 * (kind `schedule`, key `schedule:<id>`). `messageId` is the message it became once sent.
 */
export class Schedules1732242500000 implements MigrationInterface {
  name = 'Schedules1732242500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE schedules (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        body text NOT NULL,
        "sendAt" timestamptz NOT NULL,
        "sentAt" timestamptz,
        status varchar(20) NOT NULL DEFAULT 'PENDENTE'
          CHECK (status IN ('PENDENTE', 'ENVIADA', 'ERRO', 'PERDIDA')),
        "contactId" integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        "ticketId" integer REFERENCES tickets(id) ON DELETE SET NULL,
        "whatsappId" integer REFERENCES whatsapps(id) ON DELETE SET NULL,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        "messageId" integer REFERENCES messages(id) ON DELETE SET NULL,
        "mediaPath" text,
        "mediaName" text,
        error text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX schedules_company_send ON schedules ("companyId", "sendAt");
      CREATE INDEX schedules_contact ON schedules ("contactId");
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE schedules');
  }
}
