import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Spreadsheet imports into contact lists (issue 16): one row per upload, the record of a durable
 * job (`contact-list-import`). The sheet is read once into `rows` (canonical numbers, or why a
 * row was refused), then inserted in batches; `processed` is the resume point after a crash and
 * `errors` the per-row report the page downloads. `rows` is emptied when the import ends.
 */
export class ContactListImports1732242300000 implements MigrationInterface {
  name = 'ContactListImports1732242300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contact_list_imports (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "contactListId" integer NOT NULL REFERENCES contact_lists(id) ON DELETE CASCADE,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        "fileName" varchar(255) NOT NULL,
        kind varchar(8) NOT NULL CHECK (kind IN ('csv', 'xlsx', 'xls')),
        "filePath" varchar(500),
        status varchar(16) NOT NULL DEFAULT 'queued'
          CHECK (status IN ('queued', 'running', 'done', 'failed')),
        total integer NOT NULL DEFAULT 0,
        processed integer NOT NULL DEFAULT 0,
        created integer NOT NULL DEFAULT 0,
        updated integer NOT NULL DEFAULT 0,
        duplicates integer NOT NULL DEFAULT 0,
        invalid integer NOT NULL DEFAULT 0,
        error varchar(64),
        rows jsonb,
        errors jsonb NOT NULL DEFAULT '[]',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "finishedAt" timestamptz
      );
      CREATE INDEX contact_list_imports_company
        ON contact_list_imports ("companyId", "contactListId", id DESC);
      CREATE UNIQUE INDEX contact_list_imports_one_running
        ON contact_list_imports ("contactListId") WHERE status IN ('queued', 'running');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contact_list_imports`);
  }
}
