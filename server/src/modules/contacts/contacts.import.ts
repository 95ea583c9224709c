import { open, readFile } from 'node:fs/promises';
import type ExcelJS from 'exceljs';
import { contactInput } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { withChanges } from '../changes/index.js';
import { insertContact } from './contacts.service.js';

export interface ImportRow {
  name: string;
  number: string;
  email?: string;
}

export interface ImportReport {
  created: number;
  errors: { row: number; error: string; details?: unknown }[];
}

/** RFC 4180-ish CSV: quotes, doubled quotes, `,` or `;` (whichever the header uses). */
export function parseCsv(text: string): string[][] {
  const clean = text.replace(/^\uFEFF/, '');
  const firstLine = clean.split(/\r?\n/, 1)[0] ?? '';
  const sep =
    (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < clean.length; i++) {
    const ch = clean[i]!;
    if (quoted) {
      if (ch === '"' && clean[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && clean[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows.filter((r) => r.some((c) => c.trim() !== ''));
}

const HEADERS: Record<keyof ImportRow, string[]> = {
  name: ['name', 'nome'],
  number: ['number', 'numero', 'número', 'telefone', 'phone', 'celular', 'whatsapp'],
  email: ['email', 'e-mail'],
};

/** Rows of a sheet as objects, by a header row naming the columns (pt-BR or English). */
export function rowsToContacts(table: string[][]): ImportRow[] {
  const [header, ...body] = table;
  if (!header) return [];
  const col = (key: keyof ImportRow) =>
    header.findIndex((h) => HEADERS[key].includes(h.trim().toLowerCase()));
  const [nameCol, numberCol, emailCol] = [col('name'), col('number'), col('email')];
  if (nameCol < 0 || numberCol < 0) throw new AppError('ERR_IMPORT_FILE');
  return body.map((r) => ({
    name: (r[nameCol] ?? '').trim(),
    number: (r[numberCol] ?? '').trim(),
    email: emailCol >= 0 ? (r[emailCol] ?? '').trim() : '',
  }));
}

const cellText = (value: ExcelJS.CellValue): string => {
  if (value == null) return '';
  if (typeof value === 'object') {
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return String(value.result ?? '');
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
  }
  return String(value);
};

/** The largest sheet `POST /contacts/upload` reads (413 ERR_PAYLOAD_TOO_LARGE above it). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export type SheetKind = 'csv' | 'xlsx' | 'xls';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV_TYPES = ['text/csv', 'text/plain', 'application/csv', 'text/x-csv'];
/** Types a browser gives when it does not know better; the file name's extension decides. */
const GENERIC_TYPES = ['', 'application/octet-stream', 'application/vnd.ms-excel'];

/**
 * What the uploader says the sheet is, by its declared type and, for generic types (and the
 * `vnd.ms-excel` Windows gives .csv files), by its extension; undefined for anything else.
 */
export function sheetKindOf(file: {
  mimetype: string;
  originalName: string;
}): SheetKind | undefined {
  const ext = /\.([a-z]+)$/i.exec(file.originalName)?.[1]?.toLowerCase();
  if (file.mimetype === XLSX_TYPE) return 'xlsx';
  if (CSV_TYPES.includes(file.mimetype)) return 'csv';
  if (!GENERIC_TYPES.includes(file.mimetype)) return undefined;
  if (ext === 'xlsx') return 'xlsx';
  if (ext === 'csv' || ext === 'txt') return 'csv';
  if (ext === 'xls' || file.mimetype === 'application/vnd.ms-excel') return 'xls';
  return undefined;
}

const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/** Whether a sheet's first bytes are what it was declared as (text has no NUL, no zip/OLE). */
export function sheetMatches(kind: SheetKind, head: Buffer): boolean {
  const zip = head.subarray(0, 4).toString('latin1') === 'PK\x03\x04';
  const ole = head.subarray(0, 4).equals(OLE);
  if (kind === 'xlsx') return zip;
  if (kind === 'xls') return ole;
  return !zip && !ole && !head.includes(0);
}

/** What an xlsx may unpack to: exceljs inflates it whole, so a zip bomb is refused first. */
export const IMPORT_MAX_EXPANDED_BYTES = 64 * 1024 * 1024;

const EOCD = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;

/**
 * The total uncompressed size a zip declares, from its central directory (no inflating).
 * Zip64 markers count as unbounded; a zip without a readable directory is ERR_IMPORT_FILE.
 */
export async function zipExpandedBytes(file: string): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let at = -1;
    for (let i = tailLength - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        at = i;
        break;
      }
    }
    if (at < 0) throw new AppError('ERR_IMPORT_FILE');
    const entries = tail.readUInt16LE(at + 10);
    const dirSize = tail.readUInt32LE(at + 12);
    const dirOffset = tail.readUInt32LE(at + 16);
    if (dirOffset + dirSize > size) throw new AppError('ERR_IMPORT_FILE');
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirOffset);
    let total = 0;
    let pos = 0;
    for (let n = 0; n < entries; n++) {
      if (pos + 46 > dir.length || dir.readUInt32LE(pos) !== CENTRAL_ENTRY) {
        throw new AppError('ERR_IMPORT_FILE');
      }
      const expanded = dir.readUInt32LE(pos + 24);
      total += expanded === 0xffffffff ? Infinity : expanded;
      pos +=
        46 + dir.readUInt16LE(pos + 28) + dir.readUInt16LE(pos + 30) + dir.readUInt16LE(pos + 32);
    }
    return total;
  } finally {
    await handle.close();
  }
}

/** xlsx through exceljs, text as CSV; the legacy binary .xls format is refused. */
export async function readSheetFile(kind: SheetKind, file: string): Promise<string[][]> {
  if (kind === 'xls') throw new AppError('ERR_IMPORT_FILE');
  if (kind === 'csv') return parseCsv(await readFile(file, 'utf8'));
  if ((await zipExpandedBytes(file)) > IMPORT_MAX_EXPANDED_BYTES) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', {
      details: { maxExpandedBytes: IMPORT_MAX_EXPANDED_BYTES },
    });
  }
  // Loaded on the first import: exceljs adds about 0.3 s of CPU to every server start.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.Workbook();
  try {
    await workbook.xlsx.readFile(file);
  } catch {
    throw new AppError('ERR_IMPORT_FILE');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new AppError('ERR_IMPORT_FILE');
  const table: string[][] = [];
  sheet.eachRow((row) => {
    const values = row.values as ExcelJS.CellValue[];
    table.push(values.slice(1).map(cellText));
  });
  return table;
}

/** Imports rows one by one: invalid or duplicate rows are reported, valid rows are kept. */
export async function importContacts(
  app: AppContext,
  companyId: number,
  rows: ImportRow[],
): Promise<ImportReport> {
  const report: ImportReport = { created: 0, errors: [] };
  for (const [index, row] of rows.entries()) {
    const parsed = contactInput.safeParse(row);
    const line = index + 1;
    if (!parsed.success) {
      report.errors.push({
        row: line,
        error: 'ERR_VALIDATION',
        details: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
      continue;
    }
    const created = await withChanges(app, companyId, (tx, changes) =>
      insertContact(tx, companyId, parsed.data, changes),
    );
    if (created) report.created++;
    else report.errors.push({ row: line, error: 'ERR_DUPLICATED_CONTACT' });
  }
  return report;
}
