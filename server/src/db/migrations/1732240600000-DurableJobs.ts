import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Durable jobs (issue 12 item 6): one table of due rows for every feature, the record of work
 * due at a time; ticket timers move into it. The send governor's per-connection state (item 7).
 */
export class DurableJobs1732240600000 implements MigrationInterface {
  name = 'DurableJobs1732240600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE durable_jobs (
        id bigserial PRIMARY KEY,
        kind varchar(40) NOT NULL,
        key varchar(120) NOT NULL,
        "companyId" integer REFERENCES companies(id) ON DELETE CASCADE,
        payload jsonb NOT NULL DEFAULT '{}',
        "dueAt" timestamptz NOT NULL,
        "firedAt" timestamptz,
        "failedAt" timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        "retryAt" timestamptz,
        error text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE (kind, key)
      );
      CREATE INDEX durable_jobs_due ON durable_jobs (kind, "dueAt")
        WHERE "firedAt" IS NULL AND "failedAt" IS NULL;
      CREATE INDEX durable_jobs_fired ON durable_jobs ("firedAt") WHERE "firedAt" IS NOT NULL;

      INSERT INTO durable_jobs (kind, key, "companyId", payload, "dueAt", "firedAt")
      SELECT 'ticket-timer', 'ticket:' || "ticketId" || ':' || kind, "companyId",
             jsonb_build_object('ticketId', "ticketId", 'kind', kind), "dueAt", "firedAt"
        FROM ticket_timers;
      DROP TABLE ticket_timers;

      CREATE TABLE send_governor (
        "whatsappId" integer PRIMARY KEY REFERENCES whatsapps(id) ON DELETE CASCADE,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        -- Overrides of the default policy for this connection (a partial SendPolicy).
        policy jsonb NOT NULL DEFAULT '{}',
        "startedAt" timestamptz NOT NULL,
        "lastBulkAt" timestamptz,
        "jitterMs" integer NOT NULL DEFAULT 0,
        "sinceLongPause" integer NOT NULL DEFAULT 0,
        day varchar(10),
        "dailyCount" integer NOT NULL DEFAULT 0,
        failures integer NOT NULL DEFAULT 0,
        "breakerUntil" timestamptz,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE send_governor;
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
      INSERT INTO ticket_timers ("companyId", "ticketId", kind, "dueAt", "firedAt")
      SELECT d."companyId", (d.payload->>'ticketId')::int, d.payload->>'kind', d."dueAt", d."firedAt"
        FROM durable_jobs d JOIN tickets t ON t.id = (d.payload->>'ticketId')::int
       WHERE d.kind = 'ticket-timer';
      DROP TABLE durable_jobs;
    `);
  }
}
