import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Internal chat (issue 17): chats of one company, their members and messages. A member's unread
 * count is not stored: `chat_users."lastReadMessageId"` is a read cursor and the count is the
 * messages after it not sent by the member. A message is inserted after its chat row is locked
 * (the `lastMessage` update), so message ids of one chat grow in commit order and the cursor a
 * read sets (the chat's largest id, in one statement) never passes an uncommitted message.
 */
export class InternalChat1732242600000 implements MigrationInterface {
  name = 'InternalChat1732242600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE chats (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
        title varchar(255) NOT NULL,
        "ownerId" integer REFERENCES users(id) ON DELETE SET NULL,
        "lastMessage" text NOT NULL DEFAULT '',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX chats_company ON chats ("companyId", "updatedAt" DESC);

      CREATE TABLE chat_users (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "chatId" integer NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        "userId" integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        "lastReadMessageId" integer NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE ("chatId", "userId")
      );
      CREATE INDEX chat_users_company ON chat_users ("companyId", "userId", "chatId");

      CREATE TABLE chat_messages (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "chatId" integer NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        "senderId" integer REFERENCES users(id) ON DELETE SET NULL,
        message text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX chat_messages_company ON chat_messages ("companyId", "chatId", id);
      CREATE INDEX chat_messages_chat ON chat_messages ("chatId", id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE chat_messages; DROP TABLE chat_users; DROP TABLE chats;`);
  }
}
