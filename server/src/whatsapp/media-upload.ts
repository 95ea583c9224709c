// Uploads: multer streams each file to a temp file under $DATA_DIR/upload-tmp (never into
// memory); the declared type must be one we accept and the first bytes must agree with it; a
// kept file is renamed into the company's media folder under a random name, after its bytes were
// counted against the storage quota. Every temp file of a request is removed on every way out.
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { AppContext } from '../context.js';
import { AppError, inputErrorCode } from '../http/errors.js';
import { logger } from '../logger.js';
import {
  baseMime,
  companyMediaDir,
  extensionOf,
  mediaUrl,
  newMediaName,
  uploadTempDir,
  type StoredMedia,
} from './media.js';
import { releaseMedia, reserveMedia } from './media-quota.js';

/** Other names browsers and systems give the types we store (Windows calls a zip x-zip...). */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'application/x-zip-compressed': 'application/zip',
};

/** A declared type without parameters, under the name our extension table uses. */
export const declaredType = (mimetype: string): string => {
  const type = baseMime(mimetype);
  return ALIASES[type] ?? type;
};

const ascii = (bytes: Buffer, start: number, text: string) =>
  bytes.subarray(start, start + text.length).toString('latin1') === text;

/** Whether the file's first bytes are what its declared type says. */
export function contentMatches(mimetype: string, head: Buffer): boolean {
  const type = declaredType(mimetype);
  switch (type) {
    case 'image/jpeg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'image/png':
      return ascii(head, 0, '\x89PNG');
    case 'image/gif':
      return ascii(head, 0, 'GIF8');
    case 'image/webp':
      return ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP');
    case 'audio/wav':
      return ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE');
    case 'application/pdf':
      return ascii(head, 0, '%PDF');
    case 'audio/ogg':
      return ascii(head, 0, 'OggS');
    case 'audio/mpeg':
      return ascii(head, 0, 'ID3') || (head[0] === 0xff && (head[1]! & 0xe0) === 0xe0);
    case 'audio/aac':
      return head[0] === 0xff && (head[1]! & 0xf0) === 0xf0;
    case 'audio/mp4':
    case 'video/mp4':
    case 'video/3gpp':
      return ascii(head, 4, 'ftyp');
    case 'audio/webm':
    case 'video/webm':
      return head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    case 'application/zip':
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
    case 'application/vnd.openxmlformats-officedocument.presentationml.presentation':
      return ascii(head, 0, 'PK\x03\x04');
    case 'application/msword':
    case 'application/vnd.ms-excel':
      return head.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]));
    case 'text/plain':
    case 'text/csv':
      return !head.includes(0);
    default:
      return false;
  }
}

/** A received file, still in the temp folder: keep it (`keepUploads`) or it is removed. */
export interface ReceivedFile {
  path: string;
  fieldname: string;
  /** The declared type, without parameters. */
  mimetype: string;
  size: number;
  originalName: string;
}

export interface UploadOptions {
  /** The multipart fields that may hold files (Whaticket sends 'medias'). */
  fields?: string[];
  maxFiles?: number;
  /** Per file; defaults to UPLOAD_MAX_BYTES. */
  maxBytes?: number;
  /** Which declared files are accepted; default: the media types we store (not `.bin`). */
  accept?: (file: { mimetype: string; originalName: string }) => boolean;
  /** Whether the first bytes agree with the declaration; default `contentMatches`. */
  matches?: (file: ReceivedFile, head: Buffer) => boolean;
}

export const HEAD_BYTES = 4_096;

/** The first bytes of a file, for the type check. */
export async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Removes temp files; a file already gone (kept, or never written) is fine. */
export async function discardUploads(files: readonly { path: string }[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.path, { force: true })));
}

/**
 * Every temp path a request was given, removed when its response closes: the safety net for a
 * client that hangs up mid-upload or a handler that forgot (the explicit cleanups run first, so
 * an answer never goes out before its temp files are gone).
 */
const tempPathsOf = new WeakMap<Request, Set<string>>();

function trackTemp(req: Request, res: Response, file: string) {
  let paths = tempPathsOf.get(req);
  if (!paths) {
    const created = new Set<string>();
    tempPathsOf.set(req, created);
    res.once('close', () => {
      discardUploads([...created].map((p) => ({ path: p }))).catch((err: unknown) =>
        logger.error({ err }, 'removing upload temp files failed'),
      );
    });
    paths = created;
  }
  paths.add(file);
}

const STALE_MS = 60 * 60_000;
let lastSweep = 0;

/** Temp files older than an hour (a process killed mid-upload) are removed, now and then. */
async function sweepStale(dir: string, now = Date.now()): Promise<void> {
  if (now - lastSweep < STALE_MS / 6) return;
  lastSweep = now;
  for (const name of await readdir(dir)) {
    const full = path.join(dir, name);
    const info = await stat(full).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_MS) await rm(full, { force: true });
  }
}

const isSystemError = (err: unknown) =>
  typeof (err as { syscall?: unknown } | null)?.syscall === 'string';

/**
 * Any failure to read the body is the client's (4xx, coded as the error middleware codes every
 * multer and busboy error), except the disk failing under us.
 */
function uploadError(err: unknown, maxBytes: number): unknown {
  if (err instanceof AppError || isSystemError(err)) return err;
  const code = inputErrorCode(err) ?? 'ERR_MALFORMED_MULTIPART';
  const field = err instanceof multer.MulterError ? err.field : undefined;
  return new AppError(code, {
    details:
      code === 'ERR_FILE_TOO_LARGE'
        ? { field, maxBytes }
        : [{ path: `body.${field ?? 'file'}`, message: String((err as Error)?.message ?? err) }],
  });
}

const knownMedia = (file: { mimetype: string }) => extensionOf(file.mimetype) !== 'bin';

/**
 * Receives the files of a multipart request into temp files and checks each one's declared type
 * and first bytes. Call it inside an authenticated route handler, so nothing is read from an
 * unknown caller. Text fields land in req.body. On any refusal every temp file is removed first.
 */
export async function receiveUploads(
  app: AppContext,
  req: Request,
  res: Response,
  options: UploadOptions = {},
): Promise<ReceivedFile[]> {
  const dir = uploadTempDir(app);
  await mkdir(dir, { recursive: true, mode: 0o750 });
  await sweepStale(dir).catch((err: unknown) =>
    logger.warn({ err }, 'sweeping stale upload temp files failed'),
  );
  const fields = options.fields ?? ['medias'];
  const maxFiles = options.maxFiles ?? 10;
  const maxBytes = options.maxBytes ?? app.config.UPLOAD_MAX_BYTES;
  const accept = options.accept ?? knownMedia;
  const matches = options.matches ?? ((file, head) => contentMatches(file.mimetype, head));
  const tracked: string[] = [];
  const upload = multer({
    storage: multer.diskStorage({
      destination: dir,
      filename: (_req, _file, done) => {
        const name = `${randomBytes(16).toString('hex')}.part`;
        tracked.push(path.join(dir, name));
        trackTemp(req, res, path.join(dir, name));
        done(null, name);
      },
    }),
    limits: {
      fileSize: maxBytes,
      files: maxFiles,
      fields: 20,
      fieldSize: 256 * 1024,
      parts: maxFiles + 20,
    },
    fileFilter: (_req, file, done) =>
      accept({ mimetype: declaredType(file.mimetype), originalName: file.originalname })
        ? done(null, true)
        : done(new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { details: [file.originalname] })),
  }).fields(fields.map((name) => ({ name, maxCount: maxFiles })));

  const received: ReceivedFile[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      upload(req, res, (err: unknown) => (err ? reject(uploadError(err, maxBytes)) : resolve()));
    });
    const byField = (req.files ?? {}) as Record<string, Express.Multer.File[]>;
    for (const field of fields) {
      for (const f of byField[field] ?? []) {
        received.push({
          path: f.path,
          fieldname: f.fieldname,
          mimetype: declaredType(f.mimetype),
          size: f.size,
          originalName: f.originalname,
        });
      }
    }
    if (received.some((f) => f.size === 0)) {
      throw new AppError('ERR_VALIDATION', {
        details: [{ path: 'body.file', message: 'empty file' }],
      });
    }
    const bad = [];
    for (const file of received) {
      if (!matches(file, await readHead(file.path))) bad.push(file.originalName);
    }
    if (bad.length) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { details: bad });
    return received;
  } catch (err) {
    await discardUploads(tracked.map((p) => ({ path: p })));
    throw err;
  }
}

async function moveFile(from: string, to: string) {
  try {
    await rename(from, to);
  } catch (err) {
    // DATA_DIR split over two filesystems: copy, then drop the temp file.
    if ((err as { code?: string }).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
  await chmod(to, 0o640);
}

/**
 * Keeps received files in the company's media folder: their bytes are counted against the
 * storage quota first (all or none: ERR_STORAGE_QUOTA_EXCEEDED keeps nothing), then each temp
 * file is renamed to a random name. On failure nothing stays and the bytes are given back; the
 * temp files are the caller's to discard.
 */
export async function keepUploads(
  app: AppContext,
  companyId: number,
  files: readonly Pick<ReceivedFile, 'path' | 'mimetype' | 'size'>[],
): Promise<StoredMedia[]> {
  if (files.length === 0) return [];
  const total = files.reduce((sum, f) => sum + f.size, 0);
  await reserveMedia(app, companyId, total);
  const dir = companyMediaDir(app, companyId);
  const kept: StoredMedia[] = [];
  try {
    await mkdir(dir, { recursive: true, mode: 0o750 });
    for (const f of files) {
      const file = newMediaName(f.mimetype);
      const full = path.join(dir, file);
      await moveFile(f.path, full);
      kept.push({ file, path: full, url: mediaUrl(file), mimetype: f.mimetype, size: f.size });
    }
    return kept;
  } catch (err) {
    await discardUploads(kept);
    await releaseMedia(app, companyId, total);
    throw err;
  }
}
