import { isSecretSetting, SECRET_MASK } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { secretBoxFromConfig, type SecretBox } from '../../lib/secret-box.js';

/**
 * The one secrets rule (issue 11 item 2, issue 15): settings listed in SECRET_SETTING_KEYS are
 * write-only and sealed at rest (`lib/secret-box.ts`, AES-256-GCM, the context naming the company
 * and the key, so a sealed value copied to another row does not open). Admins and the super user
 * read them masked (the last 4 of a long one), other users never, and the session answer
 * (`/auth/me`, login, refresh) never carries them.
 */
export interface SettingsViewer {
  profile: string;
  super: boolean;
}

export const seesSecrets = (viewer: SettingsViewer): boolean =>
  viewer.super || viewer.profile === 'admin';

/** `••••` and, for a value of 12 characters or more, its last 4; empty stays empty. */
export const maskSecret = (value: string): string =>
  value === '' ? '' : value.length >= 12 ? `${SECRET_MASK}${value.slice(-4)}` : SECRET_MASK;

const boxes = new WeakMap<object, SecretBox>();
/** The server's secret box (derived once per configuration). */
function boxOf(app: Pick<AppContext, 'config'>): SecretBox {
  let box = boxes.get(app.config);
  if (!box) {
    box = secretBoxFromConfig(app.config);
    boxes.set(app.config, box);
  }
  return box;
}

const contextOf = (companyId: number, key: string) => `setting:${companyId}:${key}`;
const SEALED = /^v1\.[^.]+\.[^.]+\.[^.]+\.[^.]*$/;

/** The stored form of a secret setting (empty stays empty: "not set"). */
export const sealSetting = (
  app: Pick<AppContext, 'config'>,
  companyId: number,
  key: string,
  plain: string,
): string => (plain === '' ? '' : boxOf(app).seal(plain, contextOf(companyId, key)));

/**
 * The plain value of a stored secret setting. A value written before sealing existed (plain
 * text) is answered as it is; the next save seals it. One that does not open (another key, a
 * copied row) reads as empty.
 */
export function openSetting(
  app: Pick<AppContext, 'config'>,
  companyId: number,
  key: string,
  stored: string,
): string {
  if (stored === '' || !SEALED.test(stored)) return stored;
  try {
    return boxOf(app).open(stored, contextOf(companyId, key));
  } catch {
    return '';
  }
}

/** A setting as `viewer` may read it: secrets masked for admins, dropped for everyone else. */
export function visibleSettings<T extends { key: string; value: string; companyId?: number }>(
  viewer: SettingsViewer | 'session',
  rows: T[],
  app?: Pick<AppContext, 'config'>,
): T[] {
  const masked = viewer !== 'session' && seesSecrets(viewer);
  return rows.flatMap((row) => {
    if (!isSecretSetting(row.key)) return [row];
    if (!masked) return [];
    const plain =
      app && row.companyId !== undefined
        ? openSetting(app, row.companyId, row.key, row.value)
        : row.value;
    return [{ ...row, value: maskSecret(plain) }];
  });
}

/**
 * The plain value of a company's integration credential (IXC token, MK-AUTH client secret, ASAAS
 * token), for code that calls that service; '' when unset. Never answer or log it.
 */
export async function integrationSecret(
  app: Pick<AppContext, 'config' | 'settings'>,
  companyId: number,
  key: 'tokenixc' | 'clientsecretmkauth' | 'asaas',
): Promise<string> {
  const stored = (await app.settings.get(companyId, key)) ?? '';
  return openSetting(app, companyId, key, stored);
}
