import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Contacts, tickets, messages, notes, tags and the per-company change feed (issue 4). */
export class Ticketing1732233800000 implements MigrationInterface {
  name = 'Ticketing1732233800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contacts (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        -- Identities: the phone number (digits) and/or the WhatsApp LID; a group's chat id.
        number varchar(60) NOT NULL DEFAULT '',
        lid varchar(80),
        email varchar(255) NOT NULL DEFAULT '',
        "profilePicUrl" text NOT NULL DEFAULT '',
        "isGroup" boolean NOT NULL DEFAULT false,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX contacts_number ON contacts ("companyId", number) WHERE number <> '';
      CREATE UNIQUE INDEX contacts_lid ON contacts ("companyId", lid) WHERE lid IS NOT NULL;
      CREATE INDEX contacts_name ON contacts ("companyId", lower(name), id);
      CREATE TABLE contact_custom_fields (
        id serial PRIMARY KEY,
        "contactId" integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        value text NOT NULL DEFAULT ''
      );
      CREATE INDEX contact_custom_fields_contact ON contact_custom_fields ("contactId");

      CREATE TABLE tickets (
        id serial PRIMARY KEY,
        uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        status varchar(10) NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'open', 'closed')),
        "contactId" integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        "whatsappId" integer REFERENCES whatsapps(id) ON DELETE SET NULL,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        "queueId" integer REFERENCES queues(id) ON DELETE SET NULL,
        "lastMessage" text NOT NULL DEFAULT '',
        "lastMessageAt" timestamptz,
        "unreadMessages" integer NOT NULL DEFAULT 0,
        "isGroup" boolean NOT NULL DEFAULT false,
        chatbot boolean NOT NULL DEFAULT false,
        "useIntegration" boolean NOT NULL DEFAULT false,
        "promptId" integer,
        "integrationId" integer,
        "acceptedAt" timestamptz,
        "closedAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      -- At most one non-closed ticket per contact and connection.
      CREATE UNIQUE INDEX tickets_one_active ON tickets ("contactId", "whatsappId")
        WHERE status <> 'closed';
      CREATE INDEX tickets_list ON tickets ("companyId", status, "updatedAt" DESC, id DESC);
      CREATE INDEX tickets_queue_list
        ON tickets ("companyId", "queueId", status, "updatedAt" DESC, id DESC);
      CREATE INDEX tickets_user_list
        ON tickets ("companyId", "userId", status, "updatedAt" DESC, id DESC);
      CREATE INDEX tickets_contact ON tickets ("contactId", "whatsappId");

      CREATE TABLE messages (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "whatsappId" integer REFERENCES whatsapps(id) ON DELETE SET NULL,
        "ticketId" integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "contactId" integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        wid varchar(128) NOT NULL,
        "fromMe" boolean NOT NULL,
        body text NOT NULL DEFAULT '',
        ack smallint NOT NULL DEFAULT 0,
        read boolean NOT NULL DEFAULT false,
        "mediaType" varchar(30) NOT NULL DEFAULT 'chat',
        "mediaUrl" text,
        "mediaRef" jsonb,
        location jsonb,
        vcards jsonb,
        participant varchar(80),
        "isDeleted" boolean NOT NULL DEFAULT false,
        "isEdited" boolean NOT NULL DEFAULT false,
        "previousBodies" jsonb NOT NULL DEFAULT '[]',
        reactions jsonb NOT NULL DEFAULT '[]',
        "quotedMsgId" integer REFERENCES messages(id) ON DELETE SET NULL,
        "quotedWid" varchar(128),
        "clientId" varchar(64),
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        "sendError" text,
        "createdAt" timestamptz NOT NULL,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      -- Dedupe key: WhatsApp ids are unique per connection and direction, never globally.
      CREATE UNIQUE INDEX messages_wid ON messages ("companyId", "whatsappId", wid, "fromMe");
      CREATE UNIQUE INDEX messages_client_id ON messages ("companyId", "clientId")
        WHERE "clientId" IS NOT NULL;
      CREATE INDEX messages_thread
        ON messages ("companyId", "contactId", "whatsappId", "createdAt" DESC, id DESC);
      CREATE INDEX messages_ticket ON messages ("ticketId", "createdAt" DESC);
      CREATE INDEX messages_body_fts ON messages USING gin (to_tsvector('simple', body));

      CREATE TABLE ticket_notes (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        note text NOT NULL,
        "ticketId" integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "contactId" integer NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX ticket_notes_contact ON ticket_notes ("companyId", "contactId", "ticketId");

      CREATE TABLE tags (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        color varchar(20) NOT NULL DEFAULT '#A4CCCC',
        kanban integer NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("companyId", name)
      );
      CREATE TABLE ticket_tags (
        "ticketId" integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "tagId" integer NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
        PRIMARY KEY ("ticketId", "tagId")
      );
      CREATE INDEX ticket_tags_tag ON ticket_tags ("tagId");

      -- The change feed: a counter row per company gives gap-free numbers (the row lock
      -- serialises writers of one company until commit, so numbers commit in order).
      CREATE TABLE change_counters (
        "companyId" integer PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
        seq bigint NOT NULL DEFAULT 0,
        "prunedThrough" bigint NOT NULL DEFAULT 0
      );
      CREATE TABLE change_log (
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        entity varchar(20) NOT NULL,
        "entityId" integer NOT NULL,
        action varchar(20) NOT NULL,
        -- Ticket-bound changes (tickets, messages, notes) carry the ticket's queue for visibility.
        "ticketBound" boolean NOT NULL DEFAULT false,
        "queueId" integer,
        payload jsonb NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("companyId", seq)
      );
      CREATE INDEX change_log_created ON change_log ("createdAt");
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE change_log; DROP TABLE change_counters; DROP TABLE ticket_tags; DROP TABLE tags;
      DROP TABLE ticket_notes; DROP TABLE messages; DROP TABLE tickets;
      DROP TABLE contact_custom_fields; DROP TABLE contacts;
    `);
  }
}
