import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  LATEST_VERSION,
  MIGRATIONS,
  migrate,
  schemaVersion,
} from '../src/main/cache/migrations.js';
import { openCache } from '../src/main/cache/open.js';

const tables = (db: Database.Database) =>
  (
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name`)
      .all() as { name: string }[]
  ).map((r) => r.name);

describe('cache migrations', () => {
  it('has six versions and brings an empty file to the latest', () => {
    expect(LATEST_VERSION).toBe(6);
    const db = openCache();
    expect(schemaVersion(db)).toBe(6);
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'tickets',
        'messages',
        'messages_fts',
        'contacts_fts',
        'media',
        'chats',
        'chat_messages',
      ]),
    );
  });

  it('version 1 from an empty database: entity tables, outbox and cursor', () => {
    const db = new Database(':memory:');
    expect(migrate(db, 1)).toBe(1);
    const names = tables(db);
    for (const t of [
      'tickets',
      'messages',
      'contacts',
      'tags',
      'quick_messages',
      'outbox',
      'sync_state',
    ]) {
      expect(names).toContain(t);
    }
    expect(names).not.toContain('messages_fts');
    db.prepare(
      `INSERT INTO messages (id, ticketId, createdAt, body, data) VALUES (1, 1, 'x', 'olá mundo', '{}')`,
    ).run();
    db.prepare(
      `INSERT INTO contacts (id, name, number, data) VALUES (1, 'João Silva', '5511', '{}')`,
    ).run();
  });

  it('version 2 indexes rows written under version 1', () => {
    const db = new Database(':memory:');
    migrate(db, 1);
    db.prepare(
      `INSERT INTO messages (id, ticketId, createdAt, body, data) VALUES (1, 1, 'x', 'olá mundo', '{}')`,
    ).run();
    db.prepare(
      `INSERT INTO contacts (id, name, number, data) VALUES (7, 'João Silva', '5511', '{}')`,
    ).run();
    expect(migrate(db, 2)).toBe(2);
    const hit = db.prepare(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'ola'`).all();
    expect(hit).toHaveLength(1);
    const contact = db
      .prepare(`SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH 'joao'`)
      .all();
    expect(contact).toEqual([{ rowid: 7 }]);
  });

  it('version 3 from version 2 adds the media table', () => {
    const db = new Database(':memory:');
    migrate(db, 2);
    expect(tables(db)).not.toContain('media');
    expect(migrate(db, 3)).toBe(3);
    expect(tables(db)).toContain('media');
  });

  it('version 4 from version 3 fills the media URL of messages already cached', () => {
    const db = new Database(':memory:');
    migrate(db, 3);
    const insert = db.prepare(
      `INSERT INTO messages (id, ticketId, createdAt, body, data) VALUES (?, 1, 'x', '', ?)`,
    );
    insert.run(1, JSON.stringify({ id: 1, mediaUrl: '/media/abc.jpg' }));
    insert.run(2, JSON.stringify({ id: 2, mediaUrl: null }));
    insert.run(3, 'not json');
    expect(migrate(db, 4)).toBe(4);
    expect(db.prepare(`SELECT id, mediaUrl FROM messages ORDER BY id`).all()).toEqual([
      { id: 1, mediaUrl: '/media/abc.jpg' },
      { id: 2, mediaUrl: null },
      { id: 3, mediaUrl: null },
    ]);
  });

  it('version 5 from version 4 re-indexes a message only when its text changes', () => {
    const db = new Database(':memory:');
    migrate(db, 4);
    db.prepare(
      `INSERT INTO messages (id, ticketId, createdAt, body, data) VALUES (1, 1, 'x', 'olá', '{}')`,
    ).run();
    expect(migrate(db, 5)).toBe(5);
    const changes = () => db.prepare(`SELECT total_changes() AS n`).get() as { n: number };
    const before = changes().n;
    db.prepare(`UPDATE messages SET body = body, data = '{"ack":2}' WHERE id = 1`).run();
    // Only the row itself changed: no FTS delete and insert.
    expect(changes().n - before).toBe(1);
    db.prepare(`UPDATE messages SET body = 'tchau' WHERE id = 1`).run();
    expect(
      db.prepare(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'tchau'`).all(),
    ).toHaveLength(1);
    expect(
      db.prepare(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'ola'`).all(),
    ).toHaveLength(0);
  });

  it('each migration runs once: migrating again changes nothing', () => {
    const db = openCache();
    expect(migrate(db)).toBe(LATEST_VERSION);
    expect(MIGRATIONS).toHaveLength(LATEST_VERSION);
  });

  it('a failing migration leaves the previous version intact', () => {
    const db = new Database(':memory:');
    migrate(db, 1);
    db.exec(`CREATE TABLE media (x INTEGER)`);
    expect(() => migrate(db, 3)).toThrow(/media already exists/);
    // Version 2 committed on its own; version 3 rolled back whole.
    expect(schemaVersion(db)).toBe(2);
  });

  it('refuses a cache written by a newer app', () => {
    const db = new Database(':memory:');
    db.pragma('user_version = 99');
    expect(() => migrate(db)).toThrow(/newer than this app/);
  });
});
