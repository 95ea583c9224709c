import { Router, type Response } from 'express';
import { mediaEndpoints as api, mediaLinkQuery } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { companyMediaPath, mimeOfExtension } from '../../whatsapp/media.js';
import { verifyMediaLink } from './media-links.js';

/** Types a browser may show inline; anything else is sent as a download (no HTML, no SVG). */
const INLINE = /^(image\/(jpeg|png|gif|webp)|audio\/.+|video\/.+|application\/pdf)$/;

async function sendMedia(
  app: AppContext,
  companyId: number,
  file: string,
  res: Response,
  cache: string,
): Promise<undefined> {
  const full = companyMediaPath(app, companyId, file);
  if (!full) throw new AppError('ERR_NOT_FOUND');
  const type = mimeOfExtension(file.split('.').pop() ?? '');
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', cache);
  res.setHeader('Content-Disposition', INLINE.test(type) ? 'inline' : 'attachment');
  await new Promise<void>((resolve, reject) =>
    res.sendFile(full, { dotfiles: 'allow', headers: { 'Content-Type': type } }, (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  return undefined;
}

/**
 * Media is served only here, by the random name we gave it, in two ways:
 * - to a signed-in user of the company that owns the file (Authorization: Bearer);
 * - by a signed link (`?c=&exp=&sig=`, see media-links.ts) that needs no header, until it
 *   expires. A tampered link or another company's is refused; a file of another company than
 *   the one signed is simply not found.
 */
export function mediaRoutes(app: AppContext): Router {
  const router = Router();
  const byBearer = route(app, api.mediaFile, async ({ scope, params, res }) =>
    sendMedia(app, scope.companyId, params.file, res, 'private, max-age=3600'),
  );
  // The same endpoint, judged by its link: no token, and the signature required.
  const byLink = route(
    app,
    { ...api.mediaFile, access: 'public', query: mediaLinkQuery },
    async ({ params, query, res }) => {
      const companyId = verifyMediaLink(app, params.file, query);
      const left = Math.max(0, query.exp - Math.floor(Date.now() / 1000));
      // The link is the permission: a client served from another origin (an old Whaticket
      // frontend) may embed it (helmet's default CORP is same-origin).
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      return sendMedia(app, companyId, params.file, res, `private, max-age=${left}`);
    },
  );
  // A request carrying a link signature is judged by it alone (a bearer is not needed). The
  // route is the table's endpoint (its spec), whichever of the two answers.
  const media = Object.assign(
    ((req, res, next) =>
      (req.query.sig !== undefined ? byLink : byBearer)(req, res, next)) as typeof byBearer,
    { spec: api.mediaFile },
  );
  router[api.mediaFile.method](api.mediaFile.path, media);
  return router;
}
