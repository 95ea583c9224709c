// Spreadsheet imports into contact lists, as durable jobs (see server/src/jobs/CONTEXT.md):
// `contact-list-import` reads the sheet once (in a worker thread) into the import row, then
// inserts it in batches, one firing per batch, each batch and its progress in one transaction,
// so a crash resumes at the next batch; `contact-list-check` then asks the company's connection
// whether each new number is on WhatsApp, a few at a time, paced, through the cached number check.
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ContactListImportAnswer } from '@atende/shared';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { csvCell } from '../../http/spreadsheet-cell.js';
import {
  defineDurableJob,
  scheduleDurable,
  startDurableJobs,
  type DurableJob,
  type Firing,
} from '../../jobs/durable.js';
import { logger } from '../../logger.js';
import { checkingConnection, numberOnWhatsApp } from '../../whatsapp/number-check.js';
import type { ReceivedFile } from '../../whatsapp/media-upload.js';
import type { SheetKind } from '../contacts/index.js';
import {
  emitItem,
  emitListCount,
  ITEM_COLUMNS,
  type ContactListItemRow,
} from './contact-lists.service.js';
import { prepareRows, readSheet, type PreparedRow, type RowProblem } from './sheet.js';

/** Rows inserted per firing (one transaction each). */
export const IMPORT_BATCH = 2_000;
/** Numbers checked per firing of the check job, and the pause between two provider asks. */
export const CHECK_BATCH = 10;
export const CHECK_GAP_MS = 250;
/** When no connection can answer: try again later, a few times, then leave the rest unknown. */
export const CHECK_RETRY_MS = 10 * 60_000;
export const CHECK_MAX_IDLE = 6;

export interface ImportRow {
  id: number;
  companyId: number;
  contactListId: number;
  userId: number | null;
  fileName: string;
  kind: SheetKind;
  filePath: string | null;
  status: ContactListImportAnswer['status'];
  total: number;
  processed: number;
  created: number;
  updated: number;
  duplicates: number;
  invalid: number;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const IMPORT_COLUMNS = `id, "companyId", "contactListId", "userId", "fileName", kind, "filePath",
  status, total, processed, created, updated, duplicates, invalid, error, "createdAt", "finishedAt"`;

/** What the routes answer and the progress event carries. */
export const importView = (row: ImportRow): ContactListImportAnswer => ({
  id: row.id,
  contactListId: row.contactListId,
  fileName: row.fileName,
  status: row.status,
  total: row.total,
  processed: row.processed,
  created: row.created,
  updated: row.updated,
  duplicates: row.duplicates,
  invalid: row.invalid,
  error: row.error,
  createdAt: new Date(row.createdAt).toISOString(),
  finishedAt: row.finishedAt ? new Date(row.finishedAt).toISOString() : null,
});

const emitImport = (app: AppContext, row: ImportRow) =>
  app.realtime.toCompany(row.companyId, 'contactListImport', {
    action: 'update',
    record: importView(row),
  });

const importsDir = (app: AppContext, companyId: number) =>
  path.resolve(app.config.DATA_DIR, 'imports', String(companyId));

/** Moves an accepted upload out of the temp folder, where the sweeper would remove it. */
async function keepSheet(app: AppContext, companyId: number, file: ReceivedFile, kind: SheetKind) {
  const dir = importsDir(app, companyId);
  await mkdir(dir, { recursive: true, mode: 0o750 });
  const to = path.join(dir, `${randomBytes(16).toString('hex')}.${kind}`);
  try {
    await rename(file.path, to);
  } catch (err) {
    if ((err as { code?: string }).code !== 'EXDEV') throw err;
    await copyFile(file.path, to);
    await rm(file.path, { force: true });
  }
  return to;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/**
 * Starts an import of an uploaded sheet into a list (the list is the company's: checked by the
 * caller). One import per list at a time (ERR_IMPORT_RUNNING).
 */
export async function startImport(
  app: AppContext,
  companyId: number,
  userId: number,
  contactListId: number,
  file: ReceivedFile,
  kind: SheetKind,
): Promise<ImportRow> {
  const kept = await keepSheet(app, companyId, file, kind);
  try {
    return await app.ds.transaction(async (tx) => {
      const [row] = (await tx.query(
        `INSERT INTO contact_list_imports ("companyId", "contactListId", "userId", "fileName",
           kind, "filePath") VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${IMPORT_COLUMNS}`,
        [
          companyId,
          contactListId,
          userId,
          file.originalName.slice(0, 255) || 'planilha',
          kind,
          kept,
        ],
      )) as ImportRow[];
      const { trigger } = await scheduleDurable(
        app,
        contactListImportJob,
        { key: `import:${row!.id}`, companyId, dueAt: new Date(), payload: { importId: row!.id } },
        tx,
      );
      queueMicrotask(() => void afterCommit(trigger));
      return row!;
    });
  } catch (err) {
    await rm(kept, { force: true });
    if (isUniqueViolation(err)) throw new AppError('ERR_IMPORT_RUNNING');
    throw err;
  }
}

// The trigger is added once the transaction has committed (the sweeper would find it anyway).
async function afterCommit(trigger: () => Promise<void>) {
  await trigger().catch((err: unknown) => logger.warn({ err }, 'import trigger not added'));
}

/** The imports of a list, newest first. */
export async function importsOf(
  app: AppContext,
  companyId: number,
  contactListId: number,
): Promise<ImportRow[]> {
  return (await app.ds.query(
    `SELECT ${IMPORT_COLUMNS} FROM contact_list_imports
      WHERE "companyId" = $1 AND "contactListId" = $2 ORDER BY id DESC LIMIT 20`,
    [companyId, contactListId],
  )) as ImportRow[];
}

const REASON_TEXT: Record<RowProblem['reason'], string> = {
  number_missing: 'Número em branco',
  number_invalid: 'Número inválido (informe DDD e número)',
  email_invalid: 'E-mail inválido',
  duplicate_in_file: 'Número repetido na planilha (mantida a linha {{sameAs}})',
};

/** The per-row report of an import as CSV (cells neutralised against formulas). */
export async function importErrorsCsv(
  app: AppContext,
  companyId: number,
  contactListId: number,
  importId: number,
): Promise<string> {
  const [row] = (await app.ds.query(
    `SELECT errors FROM contact_list_imports
      WHERE id = $1 AND "companyId" = $2 AND "contactListId" = $3`,
    [importId, companyId, contactListId],
  )) as { errors: RowProblem[] }[];
  if (!row) throw new AppError('ERR_NO_IMPORT_FOUND');
  const lines = [['linha', 'nome', 'numero', 'motivo'].map(csvCell).join(';')];
  for (const p of row.errors) {
    const reason = REASON_TEXT[p.reason].replace('{{sameAs}}', String(p.sameAs ?? ''));
    lines.push([p.line, p.name, p.number, reason].map(csvCell).join(';'));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const ImportPayload = z.object({ importId: z.number().int().positive() });
type ImportPayload = z.infer<typeof ImportPayload>;

const next = (firing: Firing<unknown>) =>
  ({ rescheduleAt: new Date(Math.max(Date.now(), firing.dueAt.getTime() + 1)) }) as const;

async function finishImport(
  app: AppContext,
  firing: Firing<ImportPayload>,
  row: ImportRow,
  change: { status: 'done' | 'failed'; error?: string },
): Promise<ImportRow> {
  const [done] = (await firing.tx.query(
    `UPDATE contact_list_imports SET status = $2, error = $3, rows = NULL, "filePath" = NULL,
            "finishedAt" = now() WHERE id = $1 RETURNING ${IMPORT_COLUMNS}`,
    [row.id, change.status, change.error ?? null],
  )) as [ImportRow[], number];
  if (row.filePath) await rm(row.filePath, { force: true });
  return done[0]!;
}

async function runImport(app: AppContext, firing: Firing<ImportPayload>) {
  const [row] = (await firing.tx.query(
    `SELECT ${IMPORT_COLUMNS}, rows IS NOT NULL AS "hasRows", jsonb_array_length(rows) AS "rowCount"
       FROM contact_list_imports WHERE id = $1 FOR UPDATE`,
    [firing.payload.importId],
  )) as (ImportRow & { hasRows: boolean; rowCount: number | null })[];
  if (!row || row.status === 'done' || row.status === 'failed') return;

  if (!row.hasRows) {
    // Phase 1: read the sheet once and keep what it holds in the row.
    let prepared;
    try {
      if (!row.filePath) throw new AppError('ERR_IMPORT_FILE');
      prepared = prepareRows(await readSheet(row.kind, row.filePath));
    } catch (err) {
      const code = err instanceof AppError ? err.code : 'ERR_IMPORT_FILE';
      if (!(err instanceof AppError)) logger.warn({ err, importId: row.id }, 'sheet unreadable');
      emitImport(app, await finishImport(app, firing, row, { status: 'failed', error: code }));
      return;
    }
    const duplicates = prepared.problems.filter((p) => p.reason === 'duplicate_in_file').length;
    const [updated] = (await firing.tx.query(
      `UPDATE contact_list_imports SET status = 'running', rows = $2, errors = $3, total = $4,
              duplicates = $5, invalid = $6 WHERE id = $1 RETURNING ${IMPORT_COLUMNS}`,
      [
        row.id,
        JSON.stringify(prepared.rows),
        JSON.stringify(prepared.problems),
        prepared.total,
        duplicates,
        prepared.problems.length - duplicates,
      ],
    )) as [ImportRow[], number];
    emitImport(app, updated[0]!);
    return next(firing);
  }

  // Phase 2: the next batch of rows, from where the last committed batch ended.
  const toWrite = row.rowCount ?? 0;
  const offset = row.processed;
  const [batch] = (await firing.tx.query(
    `SELECT coalesce(jsonb_agg(e ORDER BY i), '[]') AS rows
       FROM contact_list_imports, jsonb_array_elements(rows) WITH ORDINALITY AS x(e, i)
      WHERE id = $1 AND i > $2 AND i <= $3`,
    [row.id, offset, offset + IMPORT_BATCH],
  )) as { rows: PreparedRow[] }[];
  const rows = batch?.rows ?? [];
  let created = 0;
  let updated = 0;
  if (rows.length) {
    const result = (await firing.tx.query(
      `INSERT INTO contact_list_items ("companyId", "contactListId", name, number, email)
       SELECT $1, $2, t.name, t.number, t.email
         FROM unnest($3::text[], $4::text[], $5::text[]) AS t(name, number, email)
       ON CONFLICT ("contactListId", number) DO UPDATE SET name = EXCLUDED.name,
         email = CASE WHEN EXCLUDED.email <> '' THEN EXCLUDED.email
                      ELSE contact_list_items.email END,
         "updatedAt" = now()
       RETURNING (xmax = 0) AS inserted`,
      [
        row.companyId,
        row.contactListId,
        rows.map((r) => r[1]),
        rows.map((r) => r[2]),
        rows.map((r) => r[3]),
      ],
    )) as { inserted: boolean }[];
    created = result.filter((r) => r.inserted).length;
    updated = result.length - created;
  }
  const processed = row.processed + rows.length;
  const [progressed] = (await firing.tx.query(
    `UPDATE contact_list_imports SET processed = $2, created = created + $3, updated = updated + $4
      WHERE id = $1 RETURNING ${IMPORT_COLUMNS}`,
    [row.id, processed, created, updated],
  )) as [ImportRow[], number];
  let current = progressed[0]!;
  if (processed < toWrite && rows.length) {
    emitImport(app, current);
    return next(firing);
  }
  current = await finishImport(app, firing, current, { status: 'done' });
  const { trigger } = await scheduleDurable(
    app,
    contactListCheckJob,
    {
      key: `check:${row.contactListId}`,
      companyId: row.companyId,
      dueAt: new Date(),
      payload: { contactListId: row.contactListId, idle: 0 },
    },
    firing.tx,
  );
  emitImport(app, current);
  emitItem(app, row.companyId, row.contactListId, 'reload');
  // After this firing commits: the count the lists page shows, and the check's trigger.
  setImmediate(() => {
    void emitListCount(app, row.companyId, row.contactListId);
    void afterCommit(trigger);
  });
}

/** The import job (one row of `contact_list_imports` per firing chain). */
export const contactListImportJob = defineDurableJob<ImportPayload>({
  kind: 'contact-list-import',
  payload: ImportPayload,
  run: runImport,
  maxAttempts: 3,
});

const CheckPayload = z.object({
  contactListId: z.number().int().positive(),
  idle: z.number().int().min(0),
});
type CheckPayload = z.infer<typeof CheckPayload>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fills `isWhatsappValid` of a list's unchecked items, CHECK_BATCH per firing, one provider ask
 * every CHECK_GAP_MS at most (answers cached in Redis by the number check are free). Without a
 * connected connection, or when it does not answer, it tries again after CHECK_RETRY_MS, up to
 * CHECK_MAX_IDLE times; the items stay unknown (null) then.
 */
async function runCheck(app: AppContext, firing: Firing<CheckPayload>) {
  const companyId = firing.companyId!;
  const { contactListId, idle } = firing.payload;
  const later = async () => {
    if (idle + 1 >= CHECK_MAX_IDLE) return undefined;
    await firing.tx.query(`UPDATE durable_jobs SET payload = $2 WHERE id = $1`, [
      firing.id,
      JSON.stringify({ contactListId, idle: idle + 1 }),
    ]);
    return { rescheduleAt: new Date(Date.now() + CHECK_RETRY_MS) };
  };
  const via = await checkingConnection(app, companyId);
  if (!via) return later();
  const items = (await app.ds.query(
    `SELECT id, number FROM contact_list_items
      WHERE "companyId" = $1 AND "contactListId" = $2 AND "isWhatsappValid" IS NULL
      ORDER BY id LIMIT $3`,
    [companyId, contactListId, CHECK_BATCH],
  )) as { id: number; number: string }[];
  let lastAsk = 0;
  for (const item of items) {
    const wait = lastAsk + CHECK_GAP_MS - Date.now();
    if (wait > 0) await pause(wait);
    const started = Date.now();
    const known = await numberOnWhatsApp(app, companyId, via, item.number);
    if (Date.now() - started > 5) lastAsk = Date.now(); // a cached answer costs no pacing
    if (known === 'unknown') return later();
    const [rows] = (await firing.tx.query(
      `UPDATE contact_list_items SET "isWhatsappValid" = $3, "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2 RETURNING ${ITEM_COLUMNS}`,
      [item.id, companyId, known === 'exists'],
    )) as [ContactListItemRow[], number];
    if (rows[0]) emitItem(app, companyId, contactListId, 'update', rows[0]);
  }
  if (items.length < CHECK_BATCH) return undefined;
  return next(firing);
}

export const contactListCheckJob = defineDurableJob<CheckPayload>({
  kind: 'contact-list-check',
  payload: CheckPayload,
  run: runCheck,
});

/** Schedules the check of a list's unchecked items (after an item is added or its number changed). */
export async function scheduleListCheck(
  app: AppContext,
  companyId: number,
  contactListId: number,
): Promise<void> {
  await scheduleDurable(app, contactListCheckJob, {
    key: `check:${contactListId}`,
    companyId,
    dueAt: new Date(),
    payload: { contactListId, idle: 0 },
  });
}

export const CONTACT_LIST_JOBS = (): DurableJob<unknown>[] => [
  contactListImportJob as DurableJob<unknown>,
  contactListCheckJob as DurableJob<unknown>,
];

export async function startContactListJobs(app: AppContext) {
  return Promise.resolve(startDurableJobs(app, CONTACT_LIST_JOBS()));
}

// The sample spreadsheet (secondary §2): built once, with SheetJS, in memory. SheetJS is loaded
// then (the imports read sheets in a worker thread): not on every server start.
let sample: Promise<Buffer> | undefined;
export function sampleSheet(): Promise<Buffer> {
  sample ??= (async () => {
    const XLSX = await import('@e965/xlsx');
    const sheet = XLSX.utils.aoa_to_sheet([
      ['nome', 'numero', 'email'],
      ['Maria da Silva', '5511987654321', 'maria@exemplo.com.br'],
      ['João Souza', '(21) 98888-7777', ''],
    ]);
    sheet['!cols'] = [{ wch: 24 }, { wch: 18 }, { wch: 28 }];
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Contatos');
    return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
  })();
  return sample;
}
