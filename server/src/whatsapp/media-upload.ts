// Uploads: multer writes straight into the company's media folder under a random name; the
// declared type must be one we know and the first bytes must agree with it, or nothing is kept.
import { open, rm } from 'node:fs/promises';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import {
  baseMime,
  companyMediaDir,
  extensionOf,
  mediaUrl,
  newMediaName,
  type StoredMedia,
} from './media.js';
import { mkdirSync } from 'node:fs';

const ascii = (bytes: Buffer, start: number, text: string) =>
  bytes.subarray(start, start + text.length).toString('latin1') === text;

/** Whether the file's first bytes are what its declared type says. */
export function contentMatches(mimetype: string, head: Buffer): boolean {
  const type = baseMime(mimetype);
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

export interface UploadOptions {
  /** The multipart field holding the files (Whaticket sends 'medias'). */
  field?: string;
  maxFiles?: number;
  /** Per file; defaults to UPLOAD_MAX_BYTES. */
  maxBytes?: number;
  /** Narrow the accepted types further (e.g. images only). */
  accept?: (mimetype: string) => boolean;
}

export interface StoredUpload extends StoredMedia {
  originalName: string;
}

async function head(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4_096);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * Receives the files of a multipart request into the company's media folder. Call it inside an
 * authenticated route handler (the company comes from the token). Text fields land in req.body.
 */
export async function receiveUploads(
  app: AppContext,
  req: Request,
  res: Response,
  companyId: number,
  options: UploadOptions = {},
): Promise<StoredUpload[]> {
  const dir = companyMediaDir(app, companyId);
  mkdirSync(dir, { recursive: true, mode: 0o750 });
  const known = (mimetype: string) =>
    extensionOf(mimetype) !== 'bin' && (options.accept?.(baseMime(mimetype)) ?? true);
  const upload = multer({
    storage: multer.diskStorage({
      destination: dir,
      filename: (_req, file, done) => done(null, newMediaName(file.mimetype)),
    }),
    limits: {
      fileSize: options.maxBytes ?? app.config.UPLOAD_MAX_BYTES,
      files: options.maxFiles ?? 10,
      fields: 20,
    },
    fileFilter: (_req, file, done) =>
      known(file.mimetype) ? done(null, true) : done(new AppError('ERR_UNSUPPORTED_MEDIA_TYPE')),
  }).array(options.field ?? 'medias', options.maxFiles ?? 10);

  const files = await new Promise<Express.Multer.File[]>((resolve, reject) => {
    upload(req, res, (err: unknown) => {
      if (!err) return resolve((req.files as Express.Multer.File[] | undefined) ?? []);
      if (err instanceof AppError) return reject(err);
      const code = (err as { code?: string }).code;
      reject(new AppError(code === 'LIMIT_FILE_SIZE' ? 'ERR_PAYLOAD_TOO_LARGE' : 'ERR_VALIDATION'));
    });
  });
  const bad = [];
  for (const file of files) {
    if (!contentMatches(file.mimetype, await head(file.path))) bad.push(file);
  }
  if (bad.length) {
    await Promise.all(files.map((f) => rm(f.path, { force: true })));
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', { details: bad.map((f) => f.originalname) });
  }
  return files.map((f) => ({
    file: f.filename,
    path: f.path,
    url: mediaUrl(f.filename),
    mimetype: baseMime(f.mimetype),
    size: f.size,
    originalName: f.originalname,
  }));
}
