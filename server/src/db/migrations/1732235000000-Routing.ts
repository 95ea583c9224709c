import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Option trees, quick messages, the bot's per-ticket state, ratings and timers (issue 5). */
export class Routing1732235000000 implements MigrationInterface {
  name = 'Routing1732235000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE queue_options (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "queueId" integer NOT NULL REFERENCES queues(id) ON DELETE CASCADE,
        "parentId" integer REFERENCES queue_options(id) ON DELETE CASCADE,
        title varchar(200) NOT NULL DEFAULT '',
        message text NOT NULL DEFAULT '',
        option varchar(10) NOT NULL,
        "mediaPath" varchar(255),
        "mediaName" varchar(255),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX queue_options_tree ON queue_options ("companyId", "queueId", "parentId");

      CREATE TABLE quick_messages (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        shortcode varchar(100) NOT NULL,
        message text NOT NULL DEFAULT '',
        geral boolean NOT NULL DEFAULT false,
        "mediaPath" varchar(255),
        "mediaName" varchar(255),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX quick_messages_company ON quick_messages ("companyId", lower(shortcode));

      -- Where the bot is with a ticket: queue menu, a node of the option tree, or rating.
      CREATE TABLE ticket_bot_state (
        "ticketId" integer PRIMARY KEY REFERENCES tickets(id) ON DELETE CASCADE,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        stage varchar(10) NOT NULL CHECK (stage IN ('menu', 'options', 'rating', 'done')),
        "queueOptionId" integer REFERENCES queue_options(id) ON DELETE SET NULL,
        "botUses" integer NOT NULL DEFAULT 0,
        "botStartedAt" timestamptz NOT NULL DEFAULT now(),
        "ratingAsks" integer NOT NULL DEFAULT 0,
        "ratingUserId" integer REFERENCES users(id) ON DELETE SET NULL,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE user_ratings (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "ticketId" integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        rate smallint NOT NULL CHECK (rate BETWEEN 1 AND 3),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("ticketId")
      );
      CREATE INDEX user_ratings_user ON user_ratings ("companyId", "userId", "createdAt");

      -- The record of every timer; BullMQ jobs only trigger it, a sweeper re-enqueues what is due.
      CREATE TABLE ticket_timers (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "ticketId" integer NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
        kind varchar(20) NOT NULL,
        "dueAt" timestamptz NOT NULL,
        "firedAt" timestamptz,
        UNIQUE ("ticketId", kind)
      );
      CREATE INDEX ticket_timers_due ON ticket_timers ("dueAt") WHERE "firedAt" IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE ticket_timers; DROP TABLE user_ratings; DROP TABLE ticket_bot_state;
      DROP TABLE quick_messages; DROP TABLE queue_options;
    `);
  }
}
