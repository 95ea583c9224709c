import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allowPermission,
  contentSecurityPolicy,
  isAllowedExternal,
  isAppUrl,
  mimeOf,
  resolveAppFile,
} from '../src/main/security.js';

const root = resolve('/opt/atende/web');

describe('app protocol path check', () => {
  it('serves files under the root and routes to index.html', () => {
    expect(resolveAppFile(root, 'app://atende/assets/index-abc.js')).toBe(
      `${root}/assets/index-abc.js`,
    );
    expect(resolveAppFile(root, 'app://atende/')).toBe(`${root}/index.html`);
    expect(resolveAppFile(root, 'app://atende/tickets/42')).toBe(`${root}/index.html`);
    expect(resolveAppFile(root, 'app://atende/a/./b/../c.css')).toBe(`${root}/a/c.css`);
  });

  it('dot segments the URL parser resolves stay inside the root', () => {
    expect(resolveAppFile(root, 'app://atende/../../etc/hosts.txt')).toBe(`${root}/etc/hosts.txt`);
    expect(resolveAppFile(root, 'app://atende/%2e%2e/%2e%2e/etc/hosts.txt')).toBe(
      `${root}/etc/hosts.txt`,
    );
  });

  it.each([
    'app://atende/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    'app://atende/..%2f..%2fsecret.txt',
    'app://atende/..%5c..%5cwindows%5cwin.ini',
    'app://atende/%00.js',
    'app://atende/%E0%A4%A',
    'app://other/index.html',
    'file:///etc/passwd',
    'not a url',
  ])('refuses %s', (url) => {
    expect(resolveAppFile(root, url)).toBeNull();
  });

  it('knows the types it serves', () => {
    expect(mimeOf('x/index.html')).toBe('text/html; charset=utf-8');
    expect(mimeOf('a.JS')).toBe('text/javascript; charset=utf-8');
    expect(mimeOf('a.bin')).toBe('application/octet-stream');
  });
});

describe('navigation, links, permissions, CSP', () => {
  it('only the app origin may load in the window', () => {
    expect(isAppUrl('app://atende/tickets')).toBe(true);
    expect(isAppUrl('https://atende.app/')).toBe(false);
    expect(isAppUrl('app://evil/')).toBe(false);
    expect(isAppUrl('javascript:alert(1)')).toBe(false);
  });

  it('external links: https to allowed hosts, the server, mailto and tel', () => {
    const server = 'https://api.empresa.com.br';
    expect(isAllowedExternal('https://wa.me/5511', server)).toBe(true);
    expect(isAllowedExternal('https://api.empresa.com.br/public/x.pdf', server)).toBe(true);
    expect(isAllowedExternal('mailto:a@b.c', server)).toBe(true);
    expect(isAllowedExternal('http://wa.me/5511', server)).toBe(false);
    expect(isAllowedExternal('https://wa.me.evil.test/', server)).toBe(false);
    expect(isAllowedExternal('https://user:pw@wa.me/', server)).toBe(false);
    expect(isAllowedExternal('file:///etc/passwd', server)).toBe(false);
    expect(isAllowedExternal('javascript:alert(1)', server)).toBe(false);
    expect(isAllowedExternal('https://example.org/', server, ['example.org'])).toBe(true);
  });

  it('permissions: notifications and the microphone only', () => {
    expect(allowPermission('notifications')).toBe(true);
    expect(allowPermission('media', { mediaTypes: ['audio'] })).toBe(true);
    expect(allowPermission('media', { mediaTypes: ['video'] })).toBe(false);
    expect(allowPermission('media', { mediaTypes: ['audio', 'video'] })).toBe(false);
    expect(allowPermission('media')).toBe(false);
    for (const p of ['geolocation', 'clipboard-read', 'openExternal', 'midi', 'display-capture']) {
      expect(allowPermission(p)).toBe(false);
    }
  });

  it('the CSP keeps scripts and connections on the app origin', () => {
    const csp = contentSecurityPolicy('https://api.empresa.com.br/');
    expect(csp).toContain(`script-src 'self'`);
    expect(csp).toContain(`connect-src 'self'`);
    expect(csp).toContain(`object-src 'none'`);
    // Images from the app and the server; outside them only the help videos' thumbnails, and
    // the help player's frame (admin §2 Help).
    expect(csp).toContain(
      "img-src 'self' data: blob: https://api.empresa.com.br https://img.youtube.com;",
    );
    expect(csp).toContain('frame-src https://www.youtube-nocookie.com;');
    expect(csp).not.toContain('unsafe-eval');
  });
});
