import Database from 'better-sqlite3';
import { migrate } from './migrations.js';

/** Opens (or creates) the cache file, tuned for one writer, and brings it to the latest schema. */
export function openCache(file = ':memory:'): Database.Database {
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}
