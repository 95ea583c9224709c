/** Browser storage keys of core §3. */
export const STORAGE_KEYS = {
  token: 'token',
  companyId: 'companyId',
  preferredTheme: 'preferredTheme',
  language: 'i18nextLng',
  cshow: 'cshow',
  volume: 'volume',
  signedMessage: 'signOption',
} as const;

export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); preferences then last for the session.
  }
}

/** Campaign routes exist only when the cshow flag is defined (core §2). */
export const campaignsVisible = (): boolean => readStorage(STORAGE_KEYS.cshow) !== null;
