import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';

/**
 * The rules the Electron shell enforces, as plain functions so they are tested under Node.
 * The UI is served from `app://atende/`; nothing else may load in the window.
 */

export const APP_SCHEME = 'app';
export const APP_HOST = 'atende';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * The file under `root` that an `app://atende/...` URL names, or null when the URL leaves the
 * root (`..`, encoded `%2e%2e`, backslashes, absolute paths), names another host, or is malformed.
 * Unknown paths without an extension fall back to index.html (client-side routes).
 */
export function resolveAppFile(root: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  // The URL parser already resolved literal dot segments; encoded ones mean an attack.
  if (path.includes('\0') || path.includes('\\') || path.split('/').includes('..')) return null;
  const relativePath = normalize(path).replace(/^[/\\]+/, '');
  const base = resolve(root);
  const file = resolve(base, relativePath || 'index.html');
  const rel = relative(base, file);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) return null;
  const lastSegment = rel.split(sep).pop() ?? '';
  return lastSegment.includes('.') ? file : resolve(base, 'index.html');
}

const MIME: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
};

export function mimeOf(file: string): string {
  const ext = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
  return MIME[ext] ?? 'application/octet-stream';
}

/**
 * The page's Content-Security-Policy. The renderer reaches the server only through IPC, so
 * scripts and connections stay on the app's own origin; images and media may come from the
 * server (avatars, attachments). MUI injects its styles at run time, hence inline styles.
 */
export function contentSecurityPolicy(serverOrigin: string): string {
  const server = serverOrigin.replace(/\/$/, '');
  return [
    `default-src 'self'`,
    `script-src 'self'`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: ${server} https://img.youtube.com`,
    `media-src 'self' blob: ${server}`,
    `font-src 'self' data:`,
    `connect-src 'self'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
    `frame-ancestors 'none'`,
    // The /helps page's player (issue 15): YouTube's privacy-enhanced embed only.
    `frame-src https://www.youtube-nocookie.com`,
    `worker-src 'self' blob:`,
  ].join('; ');
}

/** Whether a navigation stays inside the app (everything else is refused). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Hosts whose links open in the system browser; plus the server's own origin. */
export const EXTERNAL_HOSTS: readonly string[] = [
  'wa.me',
  'api.whatsapp.com',
  'www.google.com',
  'maps.google.com',
  'www.openstreetmap.org',
];

/** Whether `shell.openExternal` may open this URL: https (or mailto/tel) to an allowed host. */
export function isAllowedExternal(
  url: string,
  serverOrigin: string,
  extraHosts: readonly string[] = [],
): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'mailto:' || parsed.protocol === 'tel:') return true;
  if (parsed.username || parsed.password) return false;
  let server: URL | null = null;
  try {
    server = new URL(serverOrigin);
  } catch {
    server = null;
  }
  if (server && parsed.origin === server.origin) return true;
  return (
    parsed.protocol === 'https:' && [...EXTERNAL_HOSTS, ...extraHosts].includes(parsed.hostname)
  );
}

/** Permissions the renderer may have: the microphone (voice notes) and notifications. */
export function allowPermission(
  permission: string,
  details: { mediaTypes?: readonly string[] } = {},
): boolean {
  if (permission === 'notifications') return true;
  if (permission === 'media') {
    const types = details.mediaTypes ?? [];
    return types.length > 0 && types.every((t) => t === 'audio');
  }
  return false;
}
