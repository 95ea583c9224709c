import { isSecretSetting, SECRET_MASK } from '@atende/shared';

/**
 * The one secrets rule (issue 11 item 2): settings listed in SECRET_SETTING_KEYS are write-only.
 * Admins and the super user read them masked, other users never, and the session answer
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

/** A setting as `viewer` may read it: secrets masked for admins, dropped for everyone else. */
export function visibleSettings<T extends { key: string; value: string }>(
  viewer: SettingsViewer | 'session',
  rows: T[],
): T[] {
  const masked = viewer !== 'session' && seesSecrets(viewer);
  return rows.flatMap((row) => {
    if (!isSecretSetting(row.key)) return [row];
    return masked ? [{ ...row, value: maskSecret(row.value) }] : [];
  });
}
