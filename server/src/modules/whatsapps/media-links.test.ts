import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.js';
import { loadConfig } from '../../config.js';
import { signMediaUrl, verifyMediaLink, withSignedPayload } from './media-links.js';

const appWith = (env: Record<string, string> = {}) =>
  ({ config: loadConfig({ NODE_ENV: 'test', ...env }) }) as unknown as AppContext;
const app = appWith();
const FILE = 'AbCdEfGhIjKlMnOpQrStUv.png';
const NOW = Date.UTC(2026, 10, 23, 12, 3, 0);

/** The ERR_* code `fn` throws. */
function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

const linkOf = (url: string) => {
  const u = new URL(url, 'http://x');
  return {
    file: u.pathname.slice('/media/'.length),
    c: Number(u.searchParams.get('c')),
    exp: Number(u.searchParams.get('exp')),
    sig: u.searchParams.get('sig')!,
  };
};

describe('signed media links', () => {
  it.each([
    [null, null],
    ['https://cdn.example.com/a.png', 'https://cdn.example.com/a.png'],
    ['/media/../../etc/passwd', '/media/../../etc/passwd'],
    ['/other/a.png', '/other/a.png'],
  ])('leaves %s as it is', (url, expected) => {
    expect(signMediaUrl(app, 1, url, 'https://a.example', NOW)).toBe(expected);
  });

  it('signs company, file and an expiry rounded up to 10 minutes past the TTL', () => {
    const url = signMediaUrl(app, 7, `/media/${FILE}`, 'https://a.example', NOW)!;
    expect(url).toMatch(/^https:\/\/a\.example\/media\/[\w-]+\.png\?c=7&exp=\d+&sig=[\w-]{43}$/);
    const link = linkOf(url);
    expect(link.exp % 600).toBe(0);
    expect(link.exp * 1000 - NOW).toBeGreaterThanOrEqual(7200 * 1000);
    expect(link.exp * 1000 - NOW).toBeLessThan((7200 + 600) * 1000);
    // The same link for a while (browser caching), a new one later.
    expect(signMediaUrl(app, 7, `/media/${FILE}`, 'https://a.example', NOW + 1000)).toBe(url);
    expect(verifyMediaLink(app, link.file, link, NOW)).toBe(7);
  });

  it.each([
    ['another company', { c: 8 }, 'ERR_MEDIA_LINK_INVALID'],
    ['a later expiry', { exp: 1 }, 'ERR_MEDIA_LINK_INVALID'],
    ['a changed signature', { sig: 'A'.repeat(43) }, 'ERR_MEDIA_LINK_INVALID'],
    ['a short signature', { sig: 'abc' }, 'ERR_MEDIA_LINK_INVALID'],
    ['another file', { file: `X${FILE.slice(1)}` }, 'ERR_MEDIA_LINK_INVALID'],
  ])('refuses %s', (_what, change, code) => {
    const link = linkOf(signMediaUrl(app, 7, `/media/${FILE}`, '', NOW)!);
    const changed = {
      ...link,
      ...change,
      ...('exp' in change && { exp: link.exp + change.exp * 600 }),
    };
    expect(codeOf(() => verifyMediaLink(app, changed.file, changed, NOW))).toBe(code);
  });

  it('refuses a link once expired, and one signed with another secret', () => {
    const link = linkOf(signMediaUrl(app, 7, `/media/${FILE}`, '', NOW)!);
    expect(codeOf(() => verifyMediaLink(app, link.file, link, link.exp * 1000))).toBe(
      'ERR_MEDIA_LINK_EXPIRED',
    );
    expect(codeOf(() => verifyMediaLink(app, link.file, link, link.exp * 1000 - 1))).toBe(
      undefined,
    );
    const other = appWith({ JWT_SECRET: 'another-secret-of-this-server' });
    expect(codeOf(() => verifyMediaLink(other, link.file, link, NOW))).toBe(
      'ERR_MEDIA_LINK_INVALID',
    );
  });

  it('signs a message event payload and nothing else', () => {
    const payload = { action: 'create', message: { id: 1, mediaUrl: `/media/${FILE}` } };
    const signed = withSignedPayload(app, 7, 'message', payload, '');
    expect(signed.message.mediaUrl).toMatch(/^\/media\/[\w-]+\.png\?c=7&exp=\d+&sig=/);
    expect(payload.message.mediaUrl).toBe(`/media/${FILE}`);
    expect(withSignedPayload(app, 7, 'ticket', payload, '')).toBe(payload);
  });
});
