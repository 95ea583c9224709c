// Attachments of queues, option-tree nodes and quick messages: one file per row, stored under
// $DATA_DIR/media/<companyId>/ with a random name; the original name is kept only for display.
import { rm } from 'node:fs/promises';
import type { Request, Response } from 'express';
import multer from 'multer';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { companyMediaPath, storeMedia } from '../../whatsapp/media.js';

export interface Attachment {
  /** The stored file name (random), relative to the company's media folder. */
  mediaPath: string;
  /** The name shown to users: the uploaded name with spaces replaced by underscores. */
  mediaName: string;
}

/** Secondary §5: spaces in an attached file's name become underscores. */
export const displayName = (original: string): string =>
  original.replace(/[/\\]/g, '_').replace(/\s/g, '_').slice(0, 200);

/** Reads one multipart file (field `file` or `medias`) after the route has authenticated. */
export async function receiveFile(
  app: AppContext,
  req: Request,
  res: Response,
): Promise<Express.Multer.File> {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: app.config.UPLOAD_MAX_BYTES, files: 1 },
  }).fields([
    { name: 'file', maxCount: 1 },
    { name: 'medias', maxCount: 1 },
  ]);
  await new Promise<void>((resolve, reject) => {
    upload(req, res, (err: unknown) => {
      if (!err) return resolve();
      if (err instanceof multer.MulterError && err.code === 'LIMIT_FILE_SIZE') {
        return reject(new AppError('ERR_PAYLOAD_TOO_LARGE'));
      }
      reject(new AppError('ERR_VALIDATION', { details: 'file' }));
    });
  });
  const files = req.files as Record<string, Express.Multer.File[]> | undefined;
  const file = files?.file?.[0] ?? files?.medias?.[0];
  if (!file || file.size === 0) throw new AppError('ERR_VALIDATION', { details: 'file' });
  return file;
}

/** Stores the uploaded file of a company and answers its attachment fields. */
export async function storeAttachment(
  app: AppContext,
  companyId: number,
  file: Express.Multer.File,
): Promise<Attachment> {
  const mimetype = file.mimetype || 'application/octet-stream';
  const stored = await storeMedia(app, companyId, file.buffer, mimetype);
  return { mediaPath: stored.file, mediaName: displayName(file.originalname || stored.file) };
}

/** Removes a stored attachment; a file already gone is fine. */
export async function removeAttachment(
  app: AppContext,
  companyId: number,
  mediaPath: string | null,
): Promise<void> {
  if (!mediaPath) return;
  const full = companyMediaPath(app, companyId, mediaPath);
  if (full) await rm(full, { force: true });
}
