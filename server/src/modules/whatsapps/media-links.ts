import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { MEDIA_FILE } from '../../whatsapp/media.js';

/** Expiries are rounded up to this step, so one file's link stays the same for a while (caching). */
const EXPIRY_STEP_S = 600;
const PREFIX = '/media/';

const keys = new WeakMap<AppContext, Buffer>();

/** A key of its own for media links, derived from JWT_SECRET (a token is never a link). */
function keyOf(app: AppContext): Buffer {
  let key = keys.get(app);
  if (!key) {
    key = createHmac('sha256', app.config.JWT_SECRET).update('atende:media-link:v1').digest();
    keys.set(app, key);
  }
  return key;
}

const signatureOf = (app: AppContext, companyId: number, file: string, exp: number) =>
  createHmac('sha256', keyOf(app)).update(`${companyId}\n${file}\n${exp}`).digest('base64url');

/**
 * The base that makes a link absolute: PUBLIC_URL when configured, else the request's own
 * protocol and host (X-Forwarded-* only from a trusted proxy, see http/app.ts), else '' (a
 * socket event without PUBLIC_URL: the client resolves the relative link against its server).
 */
export function mediaBase(app: AppContext, req?: Request): string {
  if (app.config.PUBLIC_URL) return app.config.PUBLIC_URL;
  const host = req?.get('host');
  return req && host ? `${req.protocol}://${host}` : '';
}

/**
 * `/media/<file>` (as stored) → `<base>/media/<file>?c=<company>&exp=<unix s>&sig=<hmac>`, a link
 * `<img>`, `<audio>`, `<video>` and downloads load without an Authorization header until `exp`.
 * Anything else (null, an outside URL) is returned as it is.
 */
export function signMediaUrl(
  app: AppContext,
  companyId: number,
  url: string | null,
  base: string,
  now = Date.now(),
): string | null {
  if (!url?.startsWith(PREFIX)) return url;
  const file = url.slice(PREFIX.length);
  if (!MEDIA_FILE.test(file)) return url;
  const ttl = app.config.MEDIA_URL_TTL_SECONDS;
  const exp = Math.ceil((now / 1000 + ttl) / EXPIRY_STEP_S) * EXPIRY_STEP_S;
  const sig = signatureOf(app, companyId, file, exp);
  return `${base}${PREFIX}${file}?c=${companyId}&exp=${exp}&sig=${sig}`;
}

/** A message (or anything with `mediaUrl`) with its link signed. */
export function withSignedMedia<T extends { mediaUrl: string | null }>(
  app: AppContext,
  companyId: number,
  item: T,
  base: string,
): T {
  if (!item.mediaUrl) return item;
  return { ...item, mediaUrl: signMediaUrl(app, companyId, item.mediaUrl, base) };
}

/**
 * Checks a signed link; answers the company whose file it names. A tampered link, or one signed
 * for another company, is ERR_MEDIA_LINK_INVALID; a link past `exp`, ERR_MEDIA_LINK_EXPIRED.
 */
export function verifyMediaLink(
  app: AppContext,
  file: string,
  link: { c: number; exp: number; sig: string },
  now = Date.now(),
): number {
  const expected = Buffer.from(signatureOf(app, link.c, file, link.exp));
  const given = Buffer.from(link.sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new AppError('ERR_MEDIA_LINK_INVALID');
  if (link.exp * 1000 <= now) throw new AppError('ERR_MEDIA_LINK_EXPIRED');
  return link.c;
}

/**
 * A change's payload as sent to clients (socket event or `/sync/changes`): a message's media
 * link signed. The feed stores the unsigned `/media/<file>`, so a late catch-up still gets a
 * fresh link.
 */
export function withSignedPayload<P>(
  app: AppContext,
  companyId: number,
  entity: string,
  payload: P,
  base: string,
): P {
  if (entity !== 'message') return payload;
  const message = (payload as { message?: { mediaUrl?: unknown } }).message;
  if (!message || typeof message.mediaUrl !== 'string') return payload;
  return {
    ...payload,
    message: { ...message, mediaUrl: signMediaUrl(app, companyId, message.mediaUrl, base) },
  };
}
