import type { DataSource } from 'typeorm';

/**
 * Tables that change behind the API: session keys, the change publisher's queue, a running
 * session's inbox, the send governor's pacing state, the durable jobs' firings and the
 * domain-event consumers' cursors and numbering.
 */
const SKIPPED = new Set([
  'migrations',
  'change_pending',
  'whatsapp_auth_keys',
  'session_inbox',
  'send_governor',
  'durable_jobs',
  'domain_event_counter',
  'domain_event_cursors',
]);
/** Columns the workers and sessions move on their own (status, acks, presence, timestamps). */
const VOLATILE = [
  'updatedAt',
  'status',
  'qrcode',
  'retries',
  'ack',
  'online',
  'tokenVersion',
  'lastSeen',
  'pairingCode',
  'sessionEpoch',
  'number',
];
/**
 * Per table, columns written on their own: a running session's lease epoch and the number it
 * reports; a domain event's number (given after commit, see modules/changes/domain-events.ts).
 */
const VOLATILE_OF: Record<string, string[]> = {
  whatsapps: ['sessionEpoch', 'number'],
  domain_events: ['seq'],
};

/**
 * A cheap fingerprint of every table: one md5 per table over its rows (volatile columns left
 * out). Equal fingerprints before and after a request mean the request wrote nothing.
 */
export async function fingerprint(ds: DataSource): Promise<Record<string, string>> {
  const tables = (
    (await ds.query(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    )) as { name: string }[]
  )
    .map((t) => t.name)
    .filter((t) => !SKIPPED.has(t));
  const sql = tables
    .map(
      (t) =>
        `SELECT '${t}' AS name, count(*)::int || ':' || coalesce(md5(string_agg(x, '|' ORDER BY x)), '') AS sum
           FROM (SELECT (to_jsonb(r) - '{${[...VOLATILE, ...(VOLATILE_OF[t] ?? [])].join(',')}}'::text[])::text AS x
                FROM "${t}" r) s`,
    )
    .join(' UNION ALL ');
  const rows = (await ds.query(sql)) as { name: string; sum: string }[];
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}

/** The tables whose fingerprint differs between two snapshots. */
export function changedTables(
  before: Record<string, string>,
  after: Record<string, string>,
): string[] {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
}
