import type { DataSource } from 'typeorm';

/**
 * Tables that change behind the API: session keys, the change publisher's queue, a running
 * session's inbox, the send governor's pacing state, the durable jobs' firings, the
 * domain-event consumers' cursors and numbering, and the routing cache's versions (bumped by
 * triggers on the tables it caches, which are fingerprinted themselves).
 */
const SKIPPED = new Set([
  'migrations',
  'routing_config_versions',
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
 *
 * With `companyId`, a table that has a "companyId" column is fingerprinted over that company's
 * rows only (tables without one still in full): for a test whose file has other companies'
 * campaigns or timers still running in the background while it checks that nothing was written.
 */
export async function fingerprint(
  ds: DataSource,
  scope: { companyId?: number } = {},
): Promise<Record<string, string>> {
  const tables = (
    (await ds.query(
      `SELECT t.table_name AS name,
              EXISTS (SELECT 1 FROM information_schema.columns c
                       WHERE c.table_schema = 'public' AND c.table_name = t.table_name
                         AND c.column_name = 'companyId') AS "byCompany"
         FROM information_schema.tables t
        WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY 1`,
    )) as { name: string; byCompany: boolean }[]
  ).filter((t) => !SKIPPED.has(t.name));
  const companyId = scope.companyId;
  if (companyId !== undefined && !Number.isSafeInteger(companyId)) throw new Error('companyId');
  const sql = tables
    .map(
      ({ name: t, byCompany }) =>
        `SELECT '${t}' AS name, count(*)::int || ':' || coalesce(md5(string_agg(x, '|' ORDER BY x)), '') AS sum
           FROM (SELECT (to_jsonb(r) - '{${[...VOLATILE, ...(VOLATILE_OF[t] ?? [])].join(',')}}'::text[])::text AS x
                FROM "${t}" r
               ${companyId !== undefined && byCompany ? `WHERE r."companyId" = ${companyId}` : ''}) s`,
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
