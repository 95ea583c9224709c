import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Announcements (issue 17): platform-wide notices written by the super user and read by every
 * company's users. `companyId` is the author's company (kept as Whaticket does), not an audience.
 * `revision` grows at every create and change (one sequence); a user's read state is the largest
 * revision they have seen (`announcement_reads`, one row per user, with the user's company).
 */
export class Announcements1732242610000 implements MigrationInterface {
  name = 'Announcements1732242610000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE SEQUENCE announcement_revision_seq;
      CREATE TABLE announcements (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        title varchar(255) NOT NULL,
        text text NOT NULL,
        priority smallint NOT NULL DEFAULT 3 CHECK (priority BETWEEN 1 AND 3),
        status boolean NOT NULL DEFAULT true,
        "mediaPath" varchar(255),
        "mediaName" varchar(255),
        revision bigint NOT NULL DEFAULT nextval('announcement_revision_seq'),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX announcements_company ON announcements ("companyId", id);
      CREATE INDEX announcements_active ON announcements (status, revision);

      CREATE TABLE announcement_reads (
        "userId" integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "lastRevision" bigint NOT NULL DEFAULT 0,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX announcement_reads_company ON announcement_reads ("companyId", "userId");
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP TABLE announcement_reads; DROP TABLE announcements; DROP SEQUENCE announcement_revision_seq;`,
    );
  }
}
