// The storage quota: bytes of media a company keeps under $DATA_DIR/media, counted in the
// media_usage row. Uploads reserve their bytes before they are kept and are refused over the
// quota; inbound downloads are always kept (a customer's message is never lost) and only flag
// the company as over its quota.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { logger } from '../logger.js';

const MB = 1024 * 1024;

/** The quota in bytes; MEDIA_QUOTA_MB=0 means no quota. */
export const quotaBytes = (app: AppContext): number =>
  app.config.MEDIA_QUOTA_MB > 0 ? Math.floor(app.config.MEDIA_QUOTA_MB * MB) : Infinity;

// The same folder as media.ts's companyMediaDir, spelt here so media.ts can import this file.
const companyDir = (app: AppContext, companyId: number) =>
  path.join(path.resolve(app.config.DATA_DIR, 'media'), String(companyId));

async function bytesOnDisk(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let total = 0;
  for (const name of names) {
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (info?.isFile()) total += info.size;
  }
  return total;
}

/**
 * The company's usage row, created on first use from what its folder already holds (files
 * stored before the quota existed count too).
 */
async function ensureUsage(app: AppContext, companyId: number): Promise<void> {
  const [row] = (await app.ds.query('SELECT 1 FROM media_usage WHERE "companyId" = $1', [
    companyId,
  ])) as unknown[];
  if (row) return;
  const bytes = await bytesOnDisk(companyDir(app, companyId));
  await app.ds.query(
    `INSERT INTO media_usage ("companyId", bytes) VALUES ($1, $2)
     ON CONFLICT ("companyId") DO NOTHING`,
    [companyId, bytes],
  );
}

export interface MediaUsage {
  bytes: number;
  quotaBytes: number;
  overQuotaAt: Date | null;
}

export async function mediaUsage(app: AppContext, companyId: number): Promise<MediaUsage> {
  await ensureUsage(app, companyId);
  const [row] = (await app.ds.query(
    'SELECT bytes::float8 AS bytes, "overQuotaAt" FROM media_usage WHERE "companyId" = $1',
    [companyId],
  )) as { bytes: number; overQuotaAt: Date | null }[];
  return { bytes: row!.bytes, overQuotaAt: row!.overQuotaAt, quotaBytes: quotaBytes(app) };
}

/**
 * Counts `bytes` against the company's quota in one conditional update (two uploads racing for
 * the last megabytes cannot both pass); throws ERR_STORAGE_QUOTA_EXCEEDED and counts nothing when
 * they do not fit.
 */
export async function reserveMedia(app: AppContext, companyId: number, bytes: number) {
  await ensureUsage(app, companyId);
  const quota = quotaBytes(app);
  const [rows] = (await app.ds.query(
    `UPDATE media_usage SET bytes = bytes + $2, "updatedAt" = now()
      WHERE "companyId" = $1 AND ($3::float8 = 'Infinity' OR bytes + $2 <= $3::float8)
      RETURNING "companyId"`,
    [companyId, bytes, quota],
  )) as [unknown[], number];
  if (!rows.length) {
    throw new AppError('ERR_STORAGE_QUOTA_EXCEEDED', {
      details: { quotaBytes: quota, requestedBytes: bytes },
    });
  }
}

/** Counts bytes that are kept whatever the quota (inbound media); flags the company when over. */
export async function recordMedia(
  app: AppContext,
  companyId: number,
  bytes: number,
): Promise<{ overQuota: boolean }> {
  await ensureUsage(app, companyId);
  const quota = quotaBytes(app);
  const [rows] = (await app.ds.query(
    `UPDATE media_usage SET bytes = bytes + $2, "updatedAt" = now(),
            "overQuotaAt" = CASE WHEN $3::float8 <> 'Infinity' AND bytes + $2 > $3::float8
                                 THEN coalesce("overQuotaAt", now()) ELSE NULL END
      WHERE "companyId" = $1 RETURNING "overQuotaAt" IS NOT NULL AS over`,
    [companyId, bytes, quota],
  )) as [{ over: boolean }[], number];
  const overQuota = rows[0]?.over === true;
  if (overQuota) {
    logger.warn({ companyId, quotaBytes: quota }, 'inbound media kept over the storage quota');
  }
  return { overQuota };
}

/** Gives back the bytes of a removed file (or of a reservation that was not kept). */
export async function releaseMedia(app: AppContext, companyId: number, bytes: number) {
  if (bytes <= 0) return;
  const quota = quotaBytes(app);
  await app.ds.query(
    `UPDATE media_usage SET bytes = greatest(bytes - $2, 0), "updatedAt" = now(),
            "overQuotaAt" = CASE WHEN $3::float8 <> 'Infinity' AND bytes - $2 > $3::float8
                                 THEN "overQuotaAt" ELSE NULL END
      WHERE "companyId" = $1`,
    [companyId, bytes, quota],
  );
}
