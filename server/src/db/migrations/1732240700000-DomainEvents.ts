import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Domain events (issue 12 item 4): state changes other parts react to, written in the
 * transaction that makes them (beside the change feed's rows), numbered after commit (`seq`, one
 * global order) and read by consumers through a durable cursor each
 * (server/src/modules/changes/domain-events.ts).
 */
export class DomainEvents1732240700000 implements MigrationInterface {
  name = 'DomainEvents1732240700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE domain_events (
        id bigserial PRIMARY KEY,
        seq bigint,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        type varchar(64) NOT NULL,
        payload jsonb NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX domain_events_seq ON domain_events (seq) WHERE seq IS NOT NULL;
      CREATE INDEX domain_events_unnumbered ON domain_events (id) WHERE seq IS NULL;
      CREATE INDEX domain_events_company ON domain_events ("companyId", seq);

      CREATE TABLE domain_event_counter (
        id smallint PRIMARY KEY CHECK (id = 1),
        last bigint NOT NULL
      );
      INSERT INTO domain_event_counter (id, last) VALUES (1, 0);

      CREATE TABLE domain_event_cursors (
        consumer varchar(80) PRIMARY KEY,
        position bigint NOT NULL,
        failures integer NOT NULL DEFAULT 0,
        "lastError" text,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'DROP TABLE domain_event_cursors; DROP TABLE domain_event_counter; DROP TABLE domain_events;',
    );
  }
}
