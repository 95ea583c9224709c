// Attachments of queues, option-tree nodes and quick messages: one file per row, streamed to a
// temp file, checked against its declared type, then kept under $DATA_DIR/media/<companyId>/ with
// a random name (counted against the storage quota); the original name is kept only for display.
import { rm, stat } from 'node:fs/promises';
import type { Request, Response } from 'express';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { companyMediaPath } from '../../whatsapp/media.js';
import { releaseMedia } from '../../whatsapp/media-quota.js';
import {
  discardUploads,
  keepUploads,
  receiveUploads,
  type ReceivedFile,
} from '../../whatsapp/media-upload.js';

export interface Attachment {
  /** The stored file name (random), relative to the company's media folder. */
  mediaPath: string;
  /** The name shown to users: the uploaded name with spaces replaced by underscores. */
  mediaName: string;
}

/** Secondary §5: spaces in an attached file's name become underscores. */
export const displayName = (original: string): string =>
  original.replace(/[/\\]/g, '_').replace(/\s/g, '_').slice(0, 200);

/**
 * Reads one multipart file (field `file` or `medias`) into a temp file, after the route has
 * authenticated. Pass it to `storeAttachment`, which keeps it or removes it.
 */
export async function receiveFile(
  app: AppContext,
  req: Request,
  res: Response,
): Promise<ReceivedFile> {
  const files = await receiveUploads(app, req, res, { fields: ['file', 'medias'], maxFiles: 1 });
  const [file, ...extra] = files;
  if (!file || extra.length) {
    await discardUploads(files);
    throw new AppError('ERR_VALIDATION', { details: [{ path: 'body.file', message: 'one file' }] });
  }
  return file;
}

/** Keeps the received file of a company and answers its attachment fields. */
export async function storeAttachment(
  app: AppContext,
  companyId: number,
  file: ReceivedFile,
): Promise<Attachment> {
  try {
    const [stored] = await keepUploads(app, companyId, [file]);
    return { mediaPath: stored!.file, mediaName: displayName(file.originalName || stored!.file) };
  } finally {
    await discardUploads([file]);
  }
}

/** Removes a stored attachment and gives its bytes back to the quota; a file gone is fine. */
export async function removeAttachment(
  app: AppContext,
  companyId: number,
  mediaPath: string | null,
): Promise<void> {
  if (!mediaPath) return;
  const full = companyMediaPath(app, companyId, mediaPath);
  if (!full) return;
  const info = await stat(full).catch(() => undefined);
  await rm(full, { force: true });
  if (info) await releaseMedia(app, companyId, info.size);
}
