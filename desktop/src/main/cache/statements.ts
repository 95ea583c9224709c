import type { Database, Statement } from 'better-sqlite3';

const cache = new WeakMap<Database, Map<string, Statement>>();

/** A prepared statement, compiled once per connection: repositories run hot in sync loops. */
export function stmt(db: Database, sql: string): Statement {
  let byDb = cache.get(db);
  if (!byDb) {
    byDb = new Map();
    cache.set(db, byDb);
  }
  let statement = byDb.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    byDb.set(sql, statement);
  }
  return statement;
}
