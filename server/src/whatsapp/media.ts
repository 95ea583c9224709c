// Media files: stored under $DATA_DIR/media/<companyId>/<random>.<ext>, never under a name from
// a request; downloaded from WhatsApp by a job on the connection's queue; converted with ffmpeg
// called with an argument array (no shell).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Job } from 'bullmq';
import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';
import { logger } from '../logger.js';
import { connectionQueue } from './connection-queue.js';
import { recordMedia } from './media-quota.js';
import type { MediaDownloadJob, MediaDownloadResult } from './hooks.js';
import type { OutboundMedia, WhatsAppProvider } from './port.js';

const run = promisify(execFile);

/** Extensions by mime type; a type not listed is stored as `.bin` and served as a download. */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/wav': 'wav',
  'audio/webm': 'weba',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/zip': 'zip',
  'application/msword': 'doc',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

export const baseMime = (mimetype: string) => mimetype.split(';')[0]!.trim().toLowerCase();

export const extensionOf = (mimetype: string) => EXTENSIONS[baseMime(mimetype)] ?? 'bin';

export const mimeOfExtension = (ext: string) =>
  Object.entries(EXTENSIONS).find(([, e]) => e === ext)?.[0] ?? 'application/octet-stream';

export function mediaKindOf(mimetype: string): OutboundMedia['kind'] {
  const type = baseMime(mimetype);
  if (type.startsWith('image/') && type !== 'image/svg+xml') return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return 'document';
}

export const mediaRoot = (app: AppContext) => path.resolve(app.config.DATA_DIR, 'media');

export const companyMediaDir = (app: AppContext, companyId: number) =>
  path.join(mediaRoot(app), String(companyId));

/** Names we generate: random, with an extension from our table. */
export const MEDIA_FILE = /^[A-Za-z0-9_-]{20,64}\.[a-z0-9]{2,5}$/;

export const newMediaName = (mimetype: string) =>
  `${randomBytes(18).toString('base64url')}.${extensionOf(mimetype)}`;

/** The URL a client fetches a stored file from (with its bearer token). */
export const mediaUrl = (file: string) => `/media/${file}`;

export interface StoredMedia {
  file: string;
  path: string;
  url: string;
  mimetype: string;
  size: number;
}

/**
 * Writes downloaded bytes (inbound media) into the company's folder. They are kept whatever the
 * storage quota (a customer's message is never lost) and counted, flagging a company over it.
 */
export async function storeMedia(
  app: AppContext,
  companyId: number,
  bytes: Uint8Array,
  mimetype: string,
): Promise<StoredMedia> {
  const dir = companyMediaDir(app, companyId);
  await mkdir(dir, { recursive: true, mode: 0o750 });
  const file = newMediaName(mimetype);
  const full = path.join(dir, file);
  await writeFile(full, bytes, { mode: 0o640 });
  await recordMedia(app, companyId, bytes.byteLength);
  return { file, path: full, url: mediaUrl(file), mimetype, size: bytes.byteLength };
}

/**
 * Where uploads are streamed to before they are checked and kept: inside DATA_DIR, on the same
 * filesystem as the media folder, so keeping a file is a rename.
 */
export const uploadTempDir = (app: AppContext) => path.resolve(app.config.DATA_DIR, 'upload-tmp');

/** A fresh temp file name in the upload folder (the folder exists after this resolves). */
export async function newTempPath(app: AppContext, suffix = '.part'): Promise<string> {
  const dir = uploadTempDir(app);
  await mkdir(dir, { recursive: true, mode: 0o750 });
  return path.join(dir, `${randomBytes(16).toString('hex')}${suffix}`);
}

/**
 * A stored file of a company, by its name, or undefined when the name is not one of ours or the
 * file is not in that company's folder.
 */
export function companyMediaPath(app: AppContext, companyId: number, file: string) {
  if (!MEDIA_FILE.test(file)) return undefined;
  const full = path.join(companyMediaDir(app, companyId), file);
  return existsSync(full) ? full : undefined;
}

/** An absolute or media-relative path, accepted only when it lies inside the media folder. */
export function resolveMediaPath(app: AppContext, file: string): string | undefined {
  const root = mediaRoot(app);
  const full = path.resolve(root, file);
  return full.startsWith(root + path.sep) && existsSync(full) ? full : undefined;
}

const FFMPEG = existsSync('/usr/bin/ffmpeg') ? '/usr/bin/ffmpeg' : 'ffmpeg';

/** Runs ffmpeg with an argument list; no shell ever sees a file name. */
export async function ffmpeg(args: string[]): Promise<void> {
  await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    timeout: 120_000,
    maxBuffer: 4 * 1024 * 1024,
  });
}

/** Converts audio to what WhatsApp plays as a voice note (ogg/opus, mono); returns a temp file. */
export async function toVoiceNote(_app: AppContext, input: string): Promise<string> {
  const output = path.join(tmpdir(), `atende-voice-${randomBytes(8).toString('hex')}.ogg`);
  await ffmpeg([
    '-i',
    input,
    '-vn',
    '-ac',
    '1',
    '-ar',
    '48000',
    '-c:a',
    'libopus',
    '-b:a',
    '32k',
    output,
  ]);
  return output;
}

/**
 * A browser recording (webm/ogg) as mp3 at 128 kbps, the format recorded audio is kept in
 * (core §4); returns a temp file beside the upload. A recording ffmpeg cannot read is bad input:
 * ERR_INVALID_MEDIA, and no output is left behind.
 */
export async function recordingToMp3(app: AppContext, input: string): Promise<string> {
  const output = await newTempPath(app, '.mp3');
  try {
    await ffmpeg(['-i', input, '-vn', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', output]);
  } catch (err) {
    await rm(output, { force: true });
    // ffmpeg ran and refused the input (exit status) or choked on it (killed at the timeout);
    // anything else (ffmpeg missing) is ours.
    const failure = err as { code?: unknown; killed?: boolean };
    if (typeof failure.code === 'number' || failure.killed) {
      throw new AppError('ERR_INVALID_MEDIA');
    }
    throw err;
  }
  return output;
}

export const MEDIA_ATTEMPTS = 5;

/** Queues the download of an inbound message's media on its connection. */
export async function enqueueMediaDownload(
  app: AppContext,
  job: MediaDownloadJob,
): Promise<string> {
  const added = await connectionQueue(app, job.whatsappId).add('media', job, {
    jobId: `media-${job.ref.id}-${job.ref.fromMe ? 1 : 0}`,
    attempts: MEDIA_ATTEMPTS,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: 1_000,
    removeOnFail: 5_000,
  });
  return added.id ?? '';
}

async function notify(app: AppContext, job: MediaDownloadJob, result: MediaDownloadResult) {
  for (const handler of app.hooks.mediaResult) {
    await handler(app, job, result).catch((err: unknown) =>
      logger.error({ err, whatsappId: job.whatsappId }, 'media result handler failed'),
    );
  }
}

/** The processor of 'media' jobs: download, store under the company, tell the handlers. */
export async function processMediaJob(
  app: AppContext,
  job: Job<MediaDownloadJob>,
  provider: WhatsAppProvider,
): Promise<MediaDownloadResult> {
  const data = job.data;
  try {
    const bytes = await provider.downloadMedia(data.media);
    const stored = await storeMedia(app, data.companyId, bytes, data.media.mimetype);
    const result: MediaDownloadResult = {
      ok: true,
      file: stored.file,
      url: stored.url,
      mimetype: stored.mimetype,
      size: stored.size,
    };
    await notify(app, data, result);
    return result;
  } catch (err) {
    if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
      await notify(app, data, { ok: false, error: 'ERR_WAPP_DOWNLOAD_MEDIA' });
    }
    throw err;
  }
}
