// Interface logos (admin §2 Logo tab, §5): the super user uploads a PNG, ICO or SVG to one of six
// destinations; the login and sign-up pages and the favicon read them without a session.
//
// - The declared type, the file name's extension and the first bytes must all say the same type
//   (PNG signature, ICO header, an SVG document whose root element is <svg>).
// - SVG can carry script. An SVG with script elements, event-handler attributes, javascript: or
//   data:text/html links, <foreignObject>, or entity declarations is refused; and every logo is
//   served with `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline';
//   img-src data:; sandbox` and `nosniff`, so even a file opened on its own runs nothing.
// - The bytes live in Postgres (`platform_logos`, at most 2 MB each): every API process serves
//   the same logo without a shared disk.
import { readFile } from 'node:fs/promises';
import type { Request, Response } from 'express';
import { isLogoRef, LOGO_MAX_BYTES, LOGO_REFS, LOGO_TYPES, type LogoRef } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { discardUploads, receiveUploads, type ReceivedFile } from '../../whatsapp/media-upload.js';

type LogoType = (typeof LOGO_TYPES)[keyof typeof LOGO_TYPES];

/** Other names browsers give the logo types. */
const TYPE_ALIASES: Record<string, LogoType> = {
  'image/png': 'image/png',
  'image/x-icon': 'image/x-icon',
  'image/vnd.microsoft.icon': 'image/x-icon',
  'image/ico': 'image/x-icon',
  'image/icon': 'image/x-icon',
  'image/svg+xml': 'image/svg+xml',
};

/** The logo type a file declares, when its declared type and its extension agree. */
export function declaredLogoType(mimetype: string, fileName: string): LogoType | null {
  const byType = TYPE_ALIASES[mimetype.toLowerCase()];
  const ext = /\.([a-z0-9]+)$/i.exec(fileName.trim())?.[1]?.toLowerCase() ?? '';
  const byExt = (LOGO_TYPES as Record<string, LogoType>)[ext];
  return byType && byExt === byType ? byType : null;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An SVG document: optional BOM, XML declaration, comments and doctype, then `<svg`. */
const SVG_START =
  /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE\s+svg[^>[]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i;

/** Whether the first bytes are what the declared logo type says. */
export function logoContentMatches(type: LogoType, head: Buffer): boolean {
  switch (type) {
    case 'image/png':
      return head.subarray(0, 8).equals(PNG);
    case 'image/x-icon':
      // ICONDIR: reserved 0, type 1 (icon), at least one image.
      return (
        head.length >= 6 &&
        head.readUInt16LE(0) === 0 &&
        head.readUInt16LE(2) === 1 &&
        head.readUInt16LE(4) > 0
      );
    case 'image/svg+xml':
      return !head.includes(0) && SVG_START.test(head.toString('utf8'));
  }
}

/** What in an SVG could run or pull in something: refused on upload. */
const SVG_ACTIVE = [
  /<script[\s>/]/i,
  /<foreignObject[\s>/]/i,
  /<!ENTITY/i,
  /\son[a-z]+\s*=/i,
  /(?:href|src|values|to|from)\s*=\s*["']?\s*(?:javascript|vbscript|data:text\/html)/i,
  /<(?:iframe|embed|object|handler|listener)[\s>/]/i,
  /<set[^>]+attributeName\s*=\s*["']?(?:href|xlink:href|on)/i,
];

export const svgHasActiveContent = (text: string): boolean =>
  SVG_ACTIVE.some((pattern) => pattern.test(text));

/** The headers every logo answer carries: nothing in it may run, and any origin may show it. */
export const LOGO_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  'X-Content-Type-Options': 'nosniff',
  // The desktop app shows it from its own origin (app://): an <img> from another origin.
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Cache-Control': 'public, max-age=300',
} as const;

/** Receives the upload of `ref` and stores it; answers the spec's 'Arquivo Anexado'. */
export async function uploadLogo(
  app: AppContext,
  req: Request,
  res: Response,
  ref: string | undefined,
): Promise<{ mensagem: string; ref: LogoRef; url: string }> {
  if (!isLogoRef(ref)) throw new AppError('ERR_LOGO_DESTINATION_REQUIRED');
  let received: ReceivedFile[];
  try {
    received = await receiveUploads(app, req, res, {
      fields: ['file', 'medias'],
      maxFiles: 1,
      maxBytes: LOGO_MAX_BYTES,
      accept: (f) => declaredLogoType(f.mimetype, f.originalName) !== null,
      matches: (f, head) => {
        const type = declaredLogoType(f.mimetype, f.originalName);
        return type !== null && logoContentMatches(type, head);
      },
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_UNSUPPORTED_MEDIA_TYPE')
      throw new AppError('ERR_LOGO_TYPE');
    throw err;
  }
  const [file] = received;
  try {
    if (!file) throw new AppError('ERR_LOGO_FILE_REQUIRED');
    const type = declaredLogoType(file.mimetype, file.originalName)!;
    const data = await readFile(file.path);
    if (type === 'image/svg+xml' && svgHasActiveContent(data.toString('utf8')))
      throw new AppError('ERR_LOGO_SVG_ACTIVE_CONTENT');
    const [row] = (await app.ds.query(
      `INSERT INTO platform_logos (ref, mimetype, data, "updatedAt") VALUES ($1, $2, $3, now())
       ON CONFLICT (ref) DO UPDATE SET mimetype = EXCLUDED.mimetype, data = EXCLUDED.data,
         "updatedAt" = now()
       RETURNING "updatedAt"`,
      [ref, type, data],
    )) as [{ updatedAt: Date }];
    return { mensagem: 'Arquivo Anexado', ref, url: logoUrl(ref, row.updatedAt) };
  } finally {
    await discardUploads(received);
  }
}

/** The public path of a logo, versioned so a new upload is fetched again. */
const logoUrl = (ref: LogoRef, updatedAt: Date) => `/public/logos/${ref}?v=${updatedAt.getTime()}`;

/** Every destination with the path of its logo, or null when none was uploaded. */
export async function listLogos(app: AppContext): Promise<Record<LogoRef, string | null>> {
  const rows = (await app.ds.query('SELECT ref, "updatedAt" FROM platform_logos')) as {
    ref: LogoRef;
    updatedAt: Date;
  }[];
  const answer = Object.fromEntries(LOGO_REFS.map((ref) => [ref, null])) as Record<
    LogoRef,
    string | null
  >;
  for (const row of rows) answer[row.ref] = logoUrl(row.ref, row.updatedAt);
  return answer;
}

/** Sends a logo's bytes with the headers that keep an SVG inert. */
export async function sendLogo(app: AppContext, res: Response, ref: LogoRef): Promise<void> {
  const [row] = (await app.ds.query(
    'SELECT mimetype, data, "updatedAt" FROM platform_logos WHERE ref = $1',
    [ref],
  )) as { mimetype: string; data: Buffer; updatedAt: Date }[];
  if (!row) throw new AppError('ERR_NO_LOGO_FOUND');
  res.set({
    ...LOGO_HEADERS,
    'Content-Type': row.mimetype,
    'Last-Modified': row.updatedAt.toUTCString(),
  });
  res.status(200).end(row.data);
}
