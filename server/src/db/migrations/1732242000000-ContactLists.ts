import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact lists and file lists (issue 16), the audiences and attachments campaigns use.
 * `contact_list_items.number` holds the canonical number (digits only; Brazilian numbers as
 * 55 + DDD + the 9-digit mobile form), so one person is one row per list.
 */
export class ContactLists1732242000000 implements MigrationInterface {
  name = 'ContactLists1732242000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE contact_lists (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX contact_lists_company ON contact_lists ("companyId", name);

      CREATE TABLE contact_list_items (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "contactListId" integer NOT NULL REFERENCES contact_lists(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        number varchar(30) NOT NULL CHECK (number ~ '^[0-9]{8,20}$'),
        email varchar(255) NOT NULL DEFAULT '',
        "isWhatsappValid" boolean,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("contactListId", number)
      );
      CREATE INDEX contact_list_items_company ON contact_list_items ("companyId", "contactListId", id);

      CREATE TABLE file_lists (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "userId" integer REFERENCES users(id) ON DELETE SET NULL,
        name varchar(255) NOT NULL CHECK (char_length(name) >= 3),
        message text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX file_lists_company ON file_lists ("companyId", name);

      CREATE TABLE file_list_options (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "fileListId" integer NOT NULL REFERENCES file_lists(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        path varchar(500),
        "mediaType" varchar(100),
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX file_list_options_company ON file_list_options ("companyId", "fileListId", id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE file_list_options;
      DROP TABLE file_lists;
      DROP TABLE contact_list_items;
      DROP TABLE contact_lists;
    `);
  }
}
