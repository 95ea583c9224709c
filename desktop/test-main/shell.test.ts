import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refreshCookieOf } from '../src/main/net/session.js';
import { createNotifier, trayLabel } from '../src/main/notifier.js';
import {
  prefsFile,
  safeStorageVault,
  setLinuxAutostart,
  type SafeStorageLike,
} from '../src/main/persistence.js';
import { parseWindowState, restoreBounds } from '../src/main/window-state.js';

const dir = () => mkdtempSync(join(tmpdir(), 'atende-'));

describe('window state', () => {
  const screen = { x: 0, y: 0, width: 1920, height: 1040 };
  it('restores a saved place that is still on a screen', () => {
    const saved = { x: 100, y: 50, width: 1000, height: 700, maximized: true };
    expect(restoreBounds(saved, [screen])).toEqual(saved);
  });

  it('centres the default size when the saved screen is gone or the file is damaged', () => {
    const offScreen = { x: 3000, y: 0, width: 1000, height: 700, maximized: false };
    expect(restoreBounds(offScreen, [screen])).toEqual({
      x: 320,
      y: 120,
      width: 1280,
      height: 800,
      maximized: false,
    });
    expect(parseWindowState('{"x": "a"}')).toBeNull();
    expect(parseWindowState('not json')).toBeNull();
    expect(parseWindowState(null)).toBeNull();
    expect(parseWindowState('{"x":1,"y":2,"width":800,"height":600}')).toEqual({
      x: 1,
      y: 2,
      width: 800,
      height: 600,
      maximized: false,
    });
  });
});

/** A reversible stand-in for the OS keychain: what matters is what reaches the disk. */
const keychain = (available: boolean): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  encryptString: (t) => Buffer.from(`sealed:${Buffer.from(t).reverse().toString('hex')}`),
  decryptString: (b) => {
    const text = b.toString();
    if (!text.startsWith('sealed:')) throw new Error('bad');
    return Buffer.from(text.slice(7), 'hex').reverse().toString();
  },
});

describe('refresh token vault', () => {
  it('keeps the token sealed on disk and reads it back in a new process', () => {
    const file = join(dir(), 'session.bin');
    safeStorageVault(keychain(true), file).save('refresh-123');
    expect(readFileSync(file, 'utf8')).not.toContain('refresh-123');
    expect(safeStorageVault(keychain(true), file).load()).toBe('refresh-123');
  });

  it('never writes the token in plain text when no keychain is available', () => {
    const file = join(dir(), 'session.bin');
    const vault = safeStorageVault(keychain(false), file);
    vault.save('refresh-123');
    expect(vault.load()).toBe('refresh-123');
    expect(existsSync(file)).toBe(false);
  });

  it('forgets the token on sign-out and ignores a damaged file', () => {
    const file = join(dir(), 'session.bin');
    const vault = safeStorageVault(keychain(true), file);
    vault.save('x');
    vault.save(null);
    expect(existsSync(file)).toBe(false);
    const damaged = join(dir(), 'session.bin');
    safeStorageVault(keychain(true), damaged).save('y');
    const other: SafeStorageLike = {
      ...keychain(true),
      decryptString: () => {
        throw new Error('key changed');
      },
    };
    expect(safeStorageVault(other, damaged).load()).toBeNull();
  });

  it('reads the refresh cookie from Set-Cookie, and its clearing', () => {
    expect(refreshCookieOf(['a=1; Path=/', 'jrt=abc.def; Path=/; HttpOnly; SameSite=Lax'])).toBe(
      'abc.def',
    );
    expect(refreshCookieOf(['jrt=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT'])).toBeNull();
    expect(refreshCookieOf(['jrt=abc; Max-Age=0'])).toBeNull();
    expect(refreshCookieOf(['other=1'])).toBeUndefined();
  });
});

describe('preferences and auto-launch', () => {
  it('prefs default, persist, and survive a damaged file', () => {
    const file = join(dir(), 'prefs.json');
    const changes: unknown[] = [];
    const prefs = prefsFile(file, (p) => changes.push(p));
    expect(prefs.get()).toEqual({ autoLaunch: false, muted: false, groups: true });
    prefs.set({ muted: true });
    expect(prefsFile(file).get()).toEqual({ autoLaunch: false, muted: true, groups: true });
    expect(changes).toHaveLength(1);
  });

  it('writes and removes the XDG autostart entry, quoting the command', () => {
    const config = dir();
    const file = setLinuxAutostart(config, true, ['/opt/Atende App/atende', '--hidden']);
    expect(readFileSync(file, 'utf8')).toContain('Exec="/opt/Atende App/atende" --hidden');
    setLinuxAutostart(config, false, []);
    expect(existsSync(file)).toBe(false);
  });
});

describe('notifier', () => {
  const electron = (supported: boolean, shown: string[]) => ({
    isSupported: () => supported,
    create: (o: { title: string }) => {
      const handlers: (() => void)[] = [];
      return {
        on: (_: 'click', l: () => void) => void handlers.push(l),
        show: () => {
          shown.push(o.title);
          for (const h of handlers) if (o.title === 'click me') h();
        },
        close: () => shown.push(`closed ${o.title}`),
      };
    },
  });

  it('uses Electron notifications, one per tag, and reports clicks with the ticket', () => {
    const shown: string[] = [];
    const clicks: unknown[] = [];
    const notifier = createNotifier({
      electron: electron(true, shown),
      fallback: null,
      onClick: (ticketId, tag) => clicks.push([ticketId, tag]),
    });
    notifier.show({ title: 'Ana', body: 'oi', tag: 'ticket-1', ticketId: 1 });
    notifier.show({ title: 'click me', body: 'de novo', tag: 'ticket-1', ticketId: 1 });
    expect(shown).toEqual(['Ana', 'closed Ana', 'click me']);
    expect(clicks).toEqual([[1, 'ticket-1']]);
  });

  it('falls back to node-notifier where Electron cannot notify', () => {
    const sent: unknown[] = [];
    const clicks: unknown[] = [];
    const notifier = createNotifier({
      electron: electron(false, []),
      fallback: {
        notify: (options, callback) => {
          sent.push(options);
          callback?.(null, 'activate');
        },
      },
      onClick: (ticketId) => clicks.push(ticketId),
    });
    expect(notifier.show({ title: 'Bia', body: 'olá', tag: 't', ticketId: 7 })).toBe(true);
    expect(sent).toEqual([{ title: 'Bia', message: 'olá', wait: true }]);
    expect(clicks).toEqual([7]);
    const none = createNotifier({
      electron: electron(false, []),
      fallback: null,
      onClick: () => undefined,
    });
    expect(none.show({ title: 'x', body: 'y', tag: 'z' })).toBe(false);
  });

  it('tray label', () => {
    expect(trayLabel(0)).toEqual({ tooltip: 'Atende', badge: '' });
    expect(trayLabel(3)).toEqual({ tooltip: 'Atende (3)', badge: '3' });
    expect(trayLabel(120).badge).toBe('99+');
  });
});
