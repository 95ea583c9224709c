import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The write-ahead inbox of WhatsApp sessions (whatsapp/inbox.ts): every event a session receives
 * is a row here before it is handled, deleted in the transaction that stores its effect. Events
 * that cannot be handled move to session_dead_letters, which admins can list.
 */
export class SessionInbox1732240300000 implements MigrationInterface {
  name = 'SessionInbox1732240300000';

  async up(q: QueryRunner): Promise<void> {
    // json, not jsonb: an event is kept exactly as received, even a string holding \u0000
    // (which jsonb refuses), so a poisoned event can still be written down and shown.
    await q.query(`
      CREATE TABLE session_inbox (
        id bigserial PRIMARY KEY,
        "whatsappId" integer NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
        "companyId" integer NOT NULL,
        event json NOT NULL,
        "receivedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX session_inbox_connection ON session_inbox ("whatsappId", id);
      CREATE TABLE session_dead_letters (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "whatsappId" integer NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
        "inboxId" bigint NOT NULL,
        "eventName" varchar(20) NOT NULL,
        event json NOT NULL,
        error text NOT NULL,
        "errorCode" varchar(40),
        attempts integer NOT NULL,
        "receivedAt" timestamptz NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("whatsappId", "inboxId")
      );
      CREATE INDEX session_dead_letters_list ON session_dead_letters ("companyId", "whatsappId", id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE session_dead_letters; DROP TABLE session_inbox');
  }
}
