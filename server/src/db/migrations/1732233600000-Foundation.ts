import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1732233600000 implements MigrationInterface {
  name = 'Foundation1732233600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE plans (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL UNIQUE,
        users integer NOT NULL DEFAULT 0,
        connections integer NOT NULL DEFAULT 0,
        queues integer NOT NULL DEFAULT 0,
        value numeric(12,2) NOT NULL DEFAULT 0,
        "useCampaigns" boolean NOT NULL DEFAULT true,
        "useSchedules" boolean NOT NULL DEFAULT true,
        "useInternalChat" boolean NOT NULL DEFAULT true,
        "useExternalApi" boolean NOT NULL DEFAULT true,
        "useKanban" boolean NOT NULL DEFAULT true,
        "useOpenAi" boolean NOT NULL DEFAULT true,
        "useIntegrations" boolean NOT NULL DEFAULT true,
        "useInternal" boolean NOT NULL DEFAULT true,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE companies (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL UNIQUE,
        email varchar(255),
        phone varchar(30),
        "planId" integer REFERENCES plans(id) ON DELETE RESTRICT,
        status boolean NOT NULL DEFAULT true,
        "dueDate" date,
        recurrence varchar(20) NOT NULL DEFAULT 'MENSAL',
        schedules jsonb NOT NULL DEFAULT '[]',
        document varchar(30),
        "billingName" varchar(255),
        "addressZipCode" varchar(20),
        "addressStreet" varchar(255),
        "addressState" varchar(50),
        "addressCity" varchar(100),
        "addressDistrict" varchar(100),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE users (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        email varchar(255) NOT NULL,
        "passwordHash" varchar(255) NOT NULL,
        profile varchar(20) NOT NULL DEFAULT 'user',
        super boolean NOT NULL DEFAULT false,
        "whatsappId" integer,
        "allTicket" varchar(10) NOT NULL DEFAULT 'desabled',
        "tokenVersion" integer NOT NULL DEFAULT 0,
        online boolean NOT NULL DEFAULT false,
        "lastSeenAt" timestamptz,
        "resetTokenHash" varchar(255),
        "resetTokenExpiresAt" timestamptz,
        "resetAttempts" integer NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_lower ON users (lower(email));
      CREATE INDEX users_company ON users ("companyId");
      CREATE TABLE queues (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        color varchar(20) NOT NULL,
        "greetingMessage" text NOT NULL DEFAULT '',
        "outOfHoursMessage" text NOT NULL DEFAULT '',
        "orderQueue" integer,
        schedules jsonb NOT NULL DEFAULT '[]',
        "mediaPath" varchar(255),
        "mediaName" varchar(255),
        "promptId" integer,
        "integrationId" integer,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("companyId", name),
        UNIQUE ("companyId", color)
      );
      CREATE TABLE user_queues (
        "userId" integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "queueId" integer NOT NULL REFERENCES queues(id) ON DELETE CASCADE,
        PRIMARY KEY ("userId", "queueId")
      );
      CREATE INDEX user_queues_queue ON user_queues ("queueId");
      CREATE TABLE settings (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        key varchar(100) NOT NULL,
        value text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("companyId", key)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'DROP TABLE settings; DROP TABLE user_queues; DROP TABLE queues; DROP TABLE users; DROP TABLE companies; DROP TABLE plans;',
    );
  }
}
