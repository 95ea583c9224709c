import type { Database } from 'better-sqlite3';

/** Records a downloaded media file of a cached message. */
export function recordMedia(
  db: Database,
  media: { messageKey: number; ticketId: number; path: string; bytes: number; storedAt: number },
): void {
  db.prepare(
    `INSERT INTO media (messageKey, ticketId, path, bytes, storedAt)
     VALUES (@messageKey, @ticketId, @path, @bytes, @storedAt)
     ON CONFLICT (messageKey) DO UPDATE SET path = excluded.path, bytes = excluded.bytes,
       storedAt = excluded.storedAt`,
  ).run(media);
}

export function mediaBytes(db: Database): number {
  return (db.prepare(`SELECT COALESCE(sum(bytes), 0) AS n FROM media`).get() as { n: number }).n;
}

/**
 * Forgets media until the total fits in `maxBytes` and returns the files to delete. Files of
 * deleted messages go first, then those of closed tickets (least recently updated first), then
 * the oldest files of any ticket; the messages themselves stay, their text still searchable.
 */
export function evictMedia(db: Database, maxBytes: number): string[] {
  let total = mediaBytes(db);
  if (total <= maxBytes) return [];
  const candidates = db
    .prepare(
      `SELECT md.messageKey, md.path, md.bytes FROM media md
         LEFT JOIN messages m ON m.key = md.messageKey
         LEFT JOIN tickets t ON t.id = md.ticketId
        ORDER BY (m.key IS NOT NULL) ASC,
                 (COALESCE(t.status, 'closed') = 'closed') DESC,
                 CASE WHEN COALESCE(t.status, 'closed') = 'closed' THEN t.updatedAt END ASC,
                 md.storedAt ASC`,
    )
    .iterate() as IterableIterator<{ messageKey: number; path: string; bytes: number }>;
  const evicted: { messageKey: number; path: string }[] = [];
  for (const c of candidates) {
    if (total <= maxBytes) break;
    evicted.push(c);
    total -= c.bytes;
  }
  const remove = db.prepare(`DELETE FROM media WHERE messageKey = ?`);
  db.transaction(() => {
    for (const e of evicted) remove.run(e.messageKey);
  })();
  return evicted.map((e) => e.path);
}

/** The cached file for a message's media, marking it used now (eviction keeps recent files). */
export function findMedia(db: Database, path: string, now: number): { path: string } | null {
  const row = db.prepare(`SELECT messageKey FROM media WHERE path = ?`).get(path) as
    { messageKey: number } | undefined;
  if (!row) return null;
  db.prepare(`UPDATE media SET storedAt = ? WHERE messageKey = ?`).run(now, row.messageKey);
  return { path };
}
