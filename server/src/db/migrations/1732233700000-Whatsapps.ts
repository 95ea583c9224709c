import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Whatsapps1732233700000 implements MigrationInterface {
  name = 'Whatsapps1732233700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE whatsapps (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        name varchar(50) NOT NULL,
        number varchar(40) NOT NULL DEFAULT '',
        status varchar(20) NOT NULL DEFAULT 'DISCONNECTED',
        qrcode text NOT NULL DEFAULT '',
        retries integer NOT NULL DEFAULT 0,
        "isDefault" boolean NOT NULL DEFAULT false,
        provider varchar(20) NOT NULL DEFAULT 'beta',
        token varchar(100) NOT NULL,
        "greetingMessage" text NOT NULL DEFAULT '',
        "complationMessage" text NOT NULL DEFAULT '',
        "outOfHoursMessage" text NOT NULL DEFAULT '',
        "ratingMessage" text NOT NULL DEFAULT '',
        "transferQueueId" integer REFERENCES queues(id) ON DELETE SET NULL,
        "timeToTransfer" integer NOT NULL DEFAULT 0,
        "promptId" integer,
        "expiresTicket" integer NOT NULL DEFAULT 0,
        "expiresInactiveMessage" text NOT NULL DEFAULT '',
        "timeUseBotQueues" integer NOT NULL DEFAULT 0,
        "maxUseBotQueues" integer NOT NULL DEFAULT 3,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("companyId", name),
        CONSTRAINT whatsapps_token_not_empty CHECK (length(token) >= 16)
      );
      CREATE UNIQUE INDEX whatsapps_token ON whatsapps (token);
      CREATE UNIQUE INDEX whatsapps_one_default ON whatsapps ("companyId") WHERE "isDefault";
      CREATE TABLE whatsapp_queues (
        "whatsappId" integer NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
        "queueId" integer NOT NULL REFERENCES queues(id) ON DELETE CASCADE,
        PRIMARY KEY ("whatsappId", "queueId")
      );
      CREATE INDEX whatsapp_queues_queue ON whatsapp_queues ("queueId");
      ALTER TABLE users ADD CONSTRAINT users_whatsapp
        FOREIGN KEY ("whatsappId") REFERENCES whatsapps(id) ON DELETE SET NULL;
      -- Baileys auth state: one row per (connection, key type, key id); creds are type 'creds'.
      CREATE TABLE whatsapp_auth_keys (
        "whatsappId" integer NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
        type varchar(40) NOT NULL,
        "keyId" varchar(255) NOT NULL,
        value text NOT NULL,
        PRIMARY KEY ("whatsappId", type, "keyId")
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE whatsapp_auth_keys;
      ALTER TABLE users DROP CONSTRAINT users_whatsapp;
      DROP TABLE whatsapp_queues;
      DROP TABLE whatsapps;
    `);
  }
}
