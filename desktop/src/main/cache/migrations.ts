import type { Database } from 'better-sqlite3';

/**
 * The cache schema, one function per version; `PRAGMA user_version` says how far a file is.
 * Append only: a shipped migration never changes, a new version follows it.
 */
export const MIGRATIONS: readonly ((db: Database) => void)[] = [
  // 1: the synced entities, the optimistic replies and their outbox, the cursor.
  (db) =>
    db.exec(`
      CREATE TABLE tickets (
        id INTEGER PRIMARY KEY, status TEXT NOT NULL, userId INTEGER, queueId INTEGER,
        contactId INTEGER, unread INTEGER NOT NULL DEFAULT 0, updatedAt TEXT NOT NULL DEFAULT '',
        data TEXT NOT NULL);
      CREATE INDEX tickets_status_updated ON tickets (status, updatedAt DESC, id DESC);
      CREATE TABLE messages (
        key INTEGER PRIMARY KEY, id INTEGER UNIQUE, clientId TEXT UNIQUE,
        ticketId INTEGER NOT NULL, createdAt TEXT NOT NULL, body TEXT NOT NULL DEFAULT '',
        fromMe INTEGER NOT NULL DEFAULT 0, data TEXT NOT NULL);
      CREATE INDEX messages_ticket_created ON messages (ticketId, createdAt DESC, key DESC);
      CREATE TABLE contacts (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', number TEXT NOT NULL DEFAULT '',
        data TEXT NOT NULL);
      CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL, data TEXT NOT NULL);
      CREATE TABLE quick_messages (
        id INTEGER PRIMARY KEY, shortcode TEXT NOT NULL, message TEXT NOT NULL,
        data TEXT NOT NULL);
      CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE outbox (
        clientId TEXT PRIMARY KEY, ticketId INTEGER NOT NULL, body TEXT NOT NULL,
        quotedMsgId INTEGER, createdAt INTEGER NOT NULL, attempts INTEGER NOT NULL,
        nextAttemptAt INTEGER NOT NULL, state TEXT NOT NULL, reason TEXT,
        confirmed INTEGER NOT NULL DEFAULT 0);
    `),
  // 2: offline search over message text and contact names (external-content FTS5).
  (db) =>
    db.exec(`
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        body, content='messages', content_rowid='key', tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER messages_fts_ai AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, body) VALUES (new.key, new.body);
      END;
      CREATE TRIGGER messages_fts_ad AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, body) VALUES ('delete', old.key, old.body);
      END;
      CREATE TRIGGER messages_fts_au AFTER UPDATE OF body ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, body) VALUES ('delete', old.key, old.body);
        INSERT INTO messages_fts (rowid, body) VALUES (new.key, new.body);
      END;
      CREATE VIRTUAL TABLE contacts_fts USING fts5(
        name, number, content='contacts', content_rowid='id',
        tokenize='unicode61 remove_diacritics 2');
      CREATE TRIGGER contacts_fts_ai AFTER INSERT ON contacts BEGIN
        INSERT INTO contacts_fts (rowid, name, number) VALUES (new.id, new.name, new.number);
      END;
      CREATE TRIGGER contacts_fts_ad AFTER DELETE ON contacts BEGIN
        INSERT INTO contacts_fts (contacts_fts, rowid, name, number)
          VALUES ('delete', old.id, old.name, old.number);
      END;
      CREATE TRIGGER contacts_fts_au AFTER UPDATE ON contacts BEGIN
        INSERT INTO contacts_fts (contacts_fts, rowid, name, number)
          VALUES ('delete', old.id, old.name, old.number);
        INSERT INTO contacts_fts (rowid, name, number) VALUES (new.id, new.name, new.number);
      END;
      INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
      INSERT INTO contacts_fts (contacts_fts) VALUES ('rebuild');
    `),
  // 3: downloaded media files, so the cache can stay under its size bound.
  (db) =>
    db.exec(`
      CREATE TABLE media (
        messageKey INTEGER PRIMARY KEY, ticketId INTEGER NOT NULL, path TEXT NOT NULL,
        bytes INTEGER NOT NULL, storedAt INTEGER NOT NULL);
      CREATE INDEX media_ticket ON media (ticketId);
    `),
  // 4: the message's media URL as a column, so a downloaded file finds its message and ticket.
  (db) =>
    db.exec(`
      ALTER TABLE messages ADD COLUMN mediaUrl TEXT;
      UPDATE messages SET mediaUrl = json_extract(data, '$.mediaUrl')
        WHERE json_valid(data) AND json_type(data, '$.mediaUrl') = 'text';
      CREATE INDEX messages_media_url ON messages (mediaUrl) WHERE mediaUrl IS NOT NULL;
    `),
  // 5: re-index a message's text only when it changed (acks and reactions rewrite the row).
  (db) =>
    db.exec(`
      DROP TRIGGER messages_fts_au;
      CREATE TRIGGER messages_fts_au AFTER UPDATE OF body ON messages
      WHEN old.body IS NOT new.body BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, body) VALUES ('delete', old.key, old.body);
        INSERT INTO messages_fts (rowid, body) VALUES (new.key, new.body);
      END;
    `),
  // 6: internal chats the user is a member of and their messages (read offline, never written).
  (db) =>
    db.exec(`
      CREATE TABLE chats (
        id INTEGER PRIMARY KEY, uuid TEXT NOT NULL DEFAULT '', updatedAt TEXT NOT NULL DEFAULT '',
        data TEXT NOT NULL);
      CREATE INDEX chats_updated ON chats (updatedAt DESC, id DESC);
      CREATE TABLE chat_messages (
        id INTEGER PRIMARY KEY, chatId INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE INDEX chat_messages_chat ON chat_messages (chatId, id DESC);
    `),
];

export const LATEST_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Runs the migrations after the file's version up to `target`, each in its own transaction. */
export function migrate(db: Database, target = LATEST_VERSION): number {
  if (target > LATEST_VERSION) throw new Error(`unknown cache version ${target}`);
  const current = schemaVersion(db);
  if (current > LATEST_VERSION) {
    throw new Error(`cache version ${current} is newer than this app (${LATEST_VERSION})`);
  }
  for (let version = current + 1; version <= target; version++) {
    db.transaction(() => {
      MIGRATIONS[version - 1]!(db);
      db.pragma(`user_version = ${version}`);
    })();
  }
  return schemaVersion(db);
}
