import { Router } from 'express';
import { lineSchema } from '@atende/shared';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { companyMediaPath, mimeOfExtension } from '../../whatsapp/media.js';

/** Types a browser may show inline; anything else is sent as a download (no HTML, no SVG). */
const INLINE = /^(image\/(jpeg|png|gif|webp)|audio\/.+|video\/.+|application\/pdf)$/;

/**
 * Media is served only here: to a signed-in user of the company that owns the file, by the
 * random name we gave it. Another company's file is simply not found.
 */
export function mediaRoutes(app: AppContext): Router {
  const router = Router();
  router.get(
    '/media/:file',
    route(app, { params: z.object({ file: lineSchema(80) }) }, async ({ scope, params, res }) => {
      const full = companyMediaPath(app, scope.companyId, params.file);
      if (!full) throw new AppError('ERR_NOT_FOUND');
      const type = mimeOfExtension(params.file.split('.').pop() ?? '');
      res.setHeader('Content-Type', type);
      res.setHeader('Cache-Control', 'private, max-age=3600');
      res.setHeader('Content-Disposition', INLINE.test(type) ? 'inline' : 'attachment');
      await new Promise<void>((resolve, reject) =>
        res.sendFile(full, { dotfiles: 'allow', headers: { 'Content-Type': type } }, (err) =>
          err ? reject(err) : resolve(),
        ),
      );
      return undefined;
    }),
  );
  return router;
}
