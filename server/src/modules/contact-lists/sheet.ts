// Reading an uploaded spreadsheet for a contact-list import: SheetJS CE (the maintained build,
// published as @e965/xlsx) runs in a worker thread with memory, row and time limits, so a crafted
// or huge file costs a bounded amount and never blocks the event loop; the main thread only maps
// the table it answers to rows.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CONTROL_CHARACTERS } from '@atende/shared';
import { AppError } from '../../http/errors.js';
import { IMPORT_MAX_EXPANDED_BYTES, zipExpandedBytes, type SheetKind } from '../contacts/index.js';
import { canonicalNumber } from './numbers.js';

/** The most data rows one import reads (the header row aside). */
export const IMPORT_MAX_ROWS = 50_000;
/** How long the worker may read before it is stopped. */
export const IMPORT_READ_TIMEOUT_MS = 30_000;
/** The worker's heap. */
export const IMPORT_WORKER_HEAP_MB = 512;
/** Longest item name kept (secondary §5); longer names are cut. */
export const ITEM_NAME_MAX = 50;

const xlsxPath = createRequire(import.meta.url).resolve('@e965/xlsx');

// Plain CommonJS run by `new Worker(..., { eval: true })`: no build step, the same in tsx,
// vitest and the compiled server. Text is decoded as UTF-8, or Windows-1252 (what Excel in
// Portuguese saves CSV as) when it is not valid UTF-8.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const XLSX = require(workerData.xlsxPath);
const { file, kind, maxRows } = workerData;
const cell = (v) => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (v instanceof Date) return v.toISOString();
  return String(v);
};
try {
  const bytes = fs.readFileSync(file);
  const opts = { dense: true, sheetRows: maxRows + 2, cellFormula: false, cellHTML: false,
    cellStyles: false, bookVBA: false, bookDeps: false, sheetStubs: false, WTF: false };
  let wb;
  if (kind === 'csv') {
    let text;
    try { text = new TextDecoder('utf-8', { fatal: true }).decode(bytes); }
    catch { text = new TextDecoder('windows-1252').decode(bytes); }
    wb = XLSX.read(text.replace(/^\\uFEFF/, ''), { ...opts, type: 'string', raw: true });
  } else {
    wb = XLSX.read(bytes, { ...opts, type: 'buffer' });
  }
  const sheet = wb.SheetNames.length ? wb.Sheets[wb.SheetNames[0]] : undefined;
  const table = sheet
    ? XLSX.utils.sheet_to_json(sheet, { header: 1, raw: true, defval: '', blankrows: true })
    : [];
  parentPort.postMessage({ table: table.map((r) => r.map(cell)) });
} catch (err) {
  parentPort.postMessage({ failed: String(err && err.message || err).slice(0, 200) });
}
`;

/**
 * The first sheet of a file as rows of cell texts (blank rows kept, so row numbers match the
 * sheet). ERR_IMPORT_FILE when it cannot be read, ERR_IMPORT_TIMEOUT when reading takes longer
 * than the limit, ERR_PAYLOAD_TOO_LARGE when the worker runs out of memory or an xlsx would
 * unpack beyond IMPORT_MAX_EXPANDED_BYTES.
 */
export async function readSheet(
  kind: SheetKind,
  file: string,
  limits: { maxRows?: number; timeoutMs?: number } = {},
): Promise<string[][]> {
  if (kind === 'xlsx' && (await zipExpandedBytes(file)) > IMPORT_MAX_EXPANDED_BYTES) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', {
      details: { maxExpandedBytes: IMPORT_MAX_EXPANDED_BYTES },
    });
  }
  const maxRows = limits.maxRows ?? IMPORT_MAX_ROWS;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { xlsxPath, file, kind, maxRows },
    resourceLimits: { maxOldGenerationSizeMb: IMPORT_WORKER_HEAP_MB },
    stdout: true,
    stderr: true,
  });
  try {
    const answer = await new Promise<{ table?: string[][]; failed?: string }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new AppError('ERR_IMPORT_TIMEOUT')),
        limits.timeoutMs ?? IMPORT_READ_TIMEOUT_MS,
      );
      worker.once('message', (m: { table?: string[][]; failed?: string }) => {
        clearTimeout(timer);
        resolve(m);
      });
      worker.once('error', (err: Error & { code?: string }) => {
        clearTimeout(timer);
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new AppError('ERR_PAYLOAD_TOO_LARGE')
            : new AppError('ERR_IMPORT_FILE'),
        );
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        reject(new AppError('ERR_IMPORT_FILE'));
      });
    });
    if (!answer.table) throw new AppError('ERR_IMPORT_FILE');
    const dataRows = answer.table.length - 1;
    if (dataRows > maxRows) {
      throw new AppError('ERR_IMPORT_TOO_MANY_ROWS', { params: { max: maxRows } });
    }
    return answer.table;
  } finally {
    await worker.terminate();
  }
}

/** Header text compared without case, accents, spaces or punctuation ('Número' = 'numero'). */
export const headerKey = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The header synonyms (issue 16): pt-BR and English, as people name these columns. */
export const HEADER_SYNONYMS = {
  name: ['nome', 'name', 'nomecompleto', 'fullname', 'contato', 'cliente'],
  number: ['numero', 'number', 'telefone', 'celular', 'whatsapp', 'whats', 'phone', 'fone', 'tel'],
  email: ['email', 'mail', 'correioeletronico'],
} as const;

/** Header names that are refused outright: keys that reach an object's prototype. */
const FORBIDDEN_HEADERS = ['__proto__', 'constructor', 'prototype', '__defineGetter__'];

export type RowReason = 'number_missing' | 'number_invalid' | 'email_invalid' | 'duplicate_in_file';

/** A row that is imported: its sheet row number and the canonical number. */
export type PreparedRow = [line: number, name: string, number: string, email: string];

/** A row that is not imported as itself, for the report. */
export interface RowProblem {
  line: number;
  name: string;
  number: string;
  reason: RowReason;
  /** For `duplicate_in_file`: the earlier row it was folded into. */
  sameAs?: number;
}

export interface PreparedSheet {
  /** Data rows (non-blank rows after the header). */
  total: number;
  rows: PreparedRow[];
  problems: RowProblem[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const clean = (v: string | undefined) =>
  (v ?? '')
    .replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), ' ')
    .replace(/[\r\n\t]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Maps a sheet's table to list rows: the first non-blank row is the header (a number column is
 * required; name and e-mail are optional); numbers are made canonical, a missing name becomes the
 * number, names are cut to 50 characters, and a number seen earlier in the file is folded into
 * that row. A header named like an object prototype key refuses the file (ERR_IMPORT_UNSAFE).
 */
export function prepareRows(table: readonly (readonly string[])[]): PreparedSheet {
  const headerAt = table.findIndex((r) => r.some((c) => c.trim() !== ''));
  if (headerAt < 0) throw new AppError('ERR_IMPORT_HEADER');
  const header = table[headerAt]!;
  const unsafe = header.find((h) => FORBIDDEN_HEADERS.includes(h.trim().toLowerCase()));
  if (unsafe !== undefined)
    throw new AppError('ERR_IMPORT_UNSAFE', { details: { column: unsafe.trim() } });
  const keys = header.map(headerKey);
  const col = (names: readonly string[]) => keys.findIndex((k) => names.includes(k));
  const nameCol = col(HEADER_SYNONYMS.name);
  const numberCol = col(HEADER_SYNONYMS.number);
  const emailCol = col(HEADER_SYNONYMS.email);
  if (numberCol < 0) throw new AppError('ERR_IMPORT_HEADER');

  const seen = new Map<string, number>();
  const out: PreparedSheet = { total: 0, rows: [], problems: [] };
  for (let i = headerAt + 1; i < table.length; i++) {
    const r = table[i]!;
    if (!r.some((c) => c.trim() !== '')) continue;
    out.total++;
    const line = i + 1;
    const rawNumber = clean(r[numberCol]);
    const rawName = nameCol >= 0 ? clean(r[nameCol]) : '';
    const email = emailCol >= 0 ? clean(r[emailCol]).toLowerCase() : '';
    const problem = (reason: RowReason, sameAs?: number) =>
      out.problems.push({
        line,
        name: rawName.slice(0, 100),
        number: rawNumber.slice(0, 50),
        reason,
        ...(sameAs && { sameAs }),
      });
    if (!rawNumber) {
      problem('number_missing');
      continue;
    }
    const number = rawNumber.length <= 50 ? canonicalNumber(rawNumber) : null;
    if (!number) {
      problem('number_invalid');
      continue;
    }
    if (email && (email.length > 255 || !EMAIL.test(email))) {
      problem('email_invalid');
      continue;
    }
    const first = seen.get(number);
    if (first !== undefined) {
      problem('duplicate_in_file', first);
      continue;
    }
    seen.set(number, line);
    const name = (rawName.length >= 2 ? rawName : number).slice(0, ITEM_NAME_MAX);
    out.rows.push([line, name, number, email]);
  }
  return out;
}
