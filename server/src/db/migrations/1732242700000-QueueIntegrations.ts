import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Queue integrations (issue 18 item 2): the integrations (Dialogflow ES, n8n, webhook, Typebot)
 * with their sealed credentials, each ticket's conversation with one (`integration_sessions`),
 * and the webhook/n8n deliveries with their retries and dead letters. Queues and tickets that
 * named an integration now reference the table (an id that names none is cleared).
 */
export class QueueIntegrations1732242700000 implements MigrationInterface {
  name = 'QueueIntegrations1732242700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE queue_integrations (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        type varchar(20) NOT NULL CHECK (type IN ('dialogflow', 'n8n', 'webhook', 'typebot')),
        name varchar(50) NOT NULL,
        "projectName" varchar(100) NOT NULL DEFAULT '',
        "projectId" varchar(100),
        "jsonContentSealed" text,
        "jsonContentLast4" varchar(4) NOT NULL DEFAULT '',
        "webhookSecretSealed" text,
        "webhookSecretLast4" varchar(4) NOT NULL DEFAULT '',
        language varchar(10) NOT NULL DEFAULT 'pt-BR' CHECK (language IN ('pt-BR', 'en', 'es')),
        "urlN8N" varchar(2000) NOT NULL DEFAULT '',
        "typebotSlug" varchar(200) NOT NULL DEFAULT '',
        "typebotExpires" integer NOT NULL DEFAULT 1 CHECK ("typebotExpires" >= 0),
        "typebotDelayMessage" integer NOT NULL DEFAULT 1000 CHECK ("typebotDelayMessage" >= 0),
        "typebotKeywordFinish" varchar(100) NOT NULL DEFAULT '',
        "typebotKeywordRestart" varchar(100) NOT NULL DEFAULT '',
        "typebotUnknownMessage" text NOT NULL DEFAULT '',
        "typebotRestartMessage" text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX queue_integrations_company ON queue_integrations ("companyId", name);

      CREATE TABLE integration_sessions (
        "ticketId" integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "integrationId" integer NOT NULL REFERENCES queue_integrations(id) ON DELETE CASCADE,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        state jsonb,
        "lastMessageId" integer,
        "handedOffAt" timestamptz,
        "handOffReason" varchar(30),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("ticketId", "integrationId")
      );
      CREATE INDEX integration_sessions_company ON integration_sessions ("companyId", "integrationId");

      CREATE TABLE webhook_deliveries (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "integrationId" integer NOT NULL REFERENCES queue_integrations(id) ON DELETE CASCADE,
        "ticketId" integer REFERENCES tickets(id) ON DELETE SET NULL,
        "messageId" integer,
        "deliveryId" varchar(64) NOT NULL UNIQUE,
        payload jsonb NOT NULL,
        status varchar(12) NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'delivered', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        "lastError" text,
        "lastStatus" integer,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("integrationId", "messageId")
      );
      CREATE INDEX webhook_deliveries_company ON webhook_deliveries ("companyId", status, id);

      UPDATE queues SET "integrationId" = NULL
       WHERE "integrationId" IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM queue_integrations i WHERE i.id = queues."integrationId");
      ALTER TABLE queues ADD CONSTRAINT queues_integration_fk FOREIGN KEY ("integrationId")
        REFERENCES queue_integrations(id) ON DELETE SET NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE queues DROP CONSTRAINT IF EXISTS queues_integration_fk;
      DROP TABLE IF EXISTS webhook_deliveries;
      DROP TABLE IF EXISTS integration_sessions;
      DROP TABLE IF EXISTS queue_integrations;
    `);
  }
}
