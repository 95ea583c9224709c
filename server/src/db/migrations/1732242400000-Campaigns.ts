import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Campaigns (issue 16): the campaigns, their settings (key/value per company), one shipping row
 * per recipient (unique campaign + recipient: the record that makes each send happen once) and
 * the company's suppression list (numbers that asked to stop; every bulk path checks it).
 */
export class Campaigns1732242400000 implements MigrationInterface {
  name = 'Campaigns1732242400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE campaigns (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        name varchar(50) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'INATIVA'
          CHECK (status IN ('INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA')),
        confirmation boolean NOT NULL DEFAULT false,
        message1 text NOT NULL DEFAULT '',
        message2 text NOT NULL DEFAULT '',
        message3 text NOT NULL DEFAULT '',
        message4 text NOT NULL DEFAULT '',
        message5 text NOT NULL DEFAULT '',
        "confirmationMessage1" text NOT NULL DEFAULT '',
        "confirmationMessage2" text NOT NULL DEFAULT '',
        "confirmationMessage3" text NOT NULL DEFAULT '',
        "confirmationMessage4" text NOT NULL DEFAULT '',
        "confirmationMessage5" text NOT NULL DEFAULT '',
        "scheduledAt" timestamptz,
        "completedAt" timestamptz,
        "whatsappId" integer REFERENCES whatsapps(id) ON DELETE SET NULL,
        "contactListId" integer REFERENCES contact_lists(id) ON DELETE SET NULL,
        "tagListId" integer REFERENCES tags(id) ON DELETE SET NULL,
        "fileListId" integer REFERENCES file_lists(id) ON DELETE SET NULL,
        "mediaPath" varchar(255),
        "mediaName" varchar(255),
        -- Dispatch state: the next variant (per campaign), the pacing of its own sends, a pause.
        rotation integer NOT NULL DEFAULT 0,
        "lastSentAt" timestamptz,
        "nextGapMs" integer NOT NULL DEFAULT 0,
        "sinceLongPause" integer NOT NULL DEFAULT 0,
        "pausedReason" varchar(20),
        "pausedUntil" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX campaigns_company ON campaigns ("companyId", id);

      CREATE TABLE campaign_settings (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        key varchar(40) NOT NULL,
        value text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("companyId", key)
      );

      CREATE TABLE campaign_shippings (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "campaignId" integer NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        -- Who: 'item:<contact list item id>' or 'contact:<contact id>'.
        recipient varchar(40) NOT NULL,
        number varchar(30) NOT NULL,
        name varchar(255) NOT NULL DEFAULT '',
        email varchar(255) NOT NULL DEFAULT '',
        state varchar(12) NOT NULL DEFAULT 'queued'
          CHECK (state IN ('queued', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped')),
        reason varchar(255),
        variant integer,
        message text,
        reply varchar(8) CHECK (reply IN ('yes', 'no', 'stop', 'other')),
        "replyText" text,
        "contactId" integer REFERENCES contacts(id) ON DELETE SET NULL,
        "ticketId" integer REFERENCES tickets(id) ON DELETE SET NULL,
        -- The message of this recipient (the main one, or the confirmation request) and its job,
        -- kept so a dispatcher that died after storing it queues the same job again.
        "messageId" integer REFERENCES messages(id) ON DELETE SET NULL,
        "confirmationMessageId" integer REFERENCES messages(id) ON DELETE SET NULL,
        job jsonb,
        "dispatchedAt" timestamptz,
        "queuedAt" timestamptz NOT NULL DEFAULT now(),
        "confirmationRequestedAt" timestamptz,
        "confirmedAt" timestamptz,
        "sentAt" timestamptz,
        "deliveredAt" timestamptz,
        "readAt" timestamptz,
        "repliedAt" timestamptz,
        "failedAt" timestamptz,
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("campaignId", recipient)
      );
      CREATE INDEX campaign_shippings_company ON campaign_shippings ("companyId", "campaignId", id);
      CREATE INDEX campaign_shippings_next ON campaign_shippings ("campaignId", id)
        WHERE state = 'queued';
      CREATE INDEX campaign_shippings_message ON campaign_shippings ("messageId");
      CREATE INDEX campaign_shippings_confirmation ON campaign_shippings ("confirmationMessageId");
      CREATE INDEX campaign_shippings_number ON campaign_shippings ("companyId", number, id);

      CREATE TABLE campaign_suppressions (
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        number varchar(30) NOT NULL,
        reason varchar(40) NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("companyId", number)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE campaign_suppressions;
      DROP TABLE campaign_shippings;
      DROP TABLE campaign_settings;
      DROP TABLE campaigns;
    `);
  }
}
