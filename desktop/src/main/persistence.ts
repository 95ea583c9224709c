import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Prefs } from './ipc/handlers.js';
import type { TokenVault } from './net/session.js';

/** Small files under the user-data folder: preferences, the sealed refresh token, autostart. */

export function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Writes through a temporary file, so a crash never leaves half a file. */
export function writeText(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, file);
}

const prefsSchema = z.object({
  autoLaunch: z.boolean().catch(false),
  muted: z.boolean().catch(false),
  groups: z.boolean().catch(true),
});
export const DEFAULT_PREFS: Prefs = { autoLaunch: false, muted: false, groups: true };

export function prefsFile(file: string, onChange: (prefs: Prefs) => void = () => undefined) {
  const load = (): Prefs => {
    try {
      return prefsSchema.parse({ ...DEFAULT_PREFS, ...JSON.parse(readText(file) ?? '{}') });
    } catch {
      return { ...DEFAULT_PREFS };
    }
  };
  return {
    get: load,
    set(patch: Partial<Prefs>): Prefs {
      const next = { ...load(), ...patch };
      writeText(file, JSON.stringify(next));
      onChange(next);
      return next;
    },
  };
}

/** The part of Electron's safeStorage the vault uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(text: string): Buffer;
  decryptString(data: Buffer): string;
}

/**
 * The refresh token sealed with the OS keychain (safeStorage). Where no keychain is available
 * the token stays in memory only: never written in plain text, the agent signs in next time.
 */
export function safeStorageVault(safeStorage: SafeStorageLike, file: string): TokenVault {
  let memory: string | null = null;
  let loaded = false;
  return {
    load() {
      if (loaded) return memory;
      loaded = true;
      if (!safeStorage.isEncryptionAvailable()) return memory;
      const sealed = readText(file);
      if (!sealed) return memory;
      try {
        memory = safeStorage.decryptString(Buffer.from(sealed, 'base64'));
      } catch {
        memory = null;
      }
      return memory;
    },
    save(token) {
      memory = token;
      loaded = true;
      if (token === null || !safeStorage.isEncryptionAvailable()) {
        rmSync(file, { force: true });
        return;
      }
      writeText(file, safeStorage.encryptString(token).toString('base64'));
    },
  };
}

/** Linux has no login-item API in Electron: an XDG autostart entry does the same. */
export function setLinuxAutostart(
  configDir: string,
  enabled: boolean,
  exec: readonly string[],
): string {
  const file = join(configDir, 'autostart', 'atende.desktop');
  if (!enabled) {
    rmSync(file, { force: true });
    return file;
  }
  const quoted = exec.map((a) =>
    /^[\w@%+=:,./-]+$/.test(a) ? a : `"${a.replace(/(["`$\\])/g, '\\$1')}"`,
  );
  writeText(
    file,
    [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Atende',
      `Exec=${quoted.join(' ')}`,
      'X-GNOME-Autostart-enabled=true',
      '',
    ].join('\n'),
  );
  return file;
}
