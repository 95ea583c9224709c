import { create } from 'zustand';
import { readStorage, STORAGE_KEYS, writeStorage } from '../session/storage';

export type ThemeMode = 'light' | 'dark';

/** Volume 0 to 1 in steps of 0.1 (core §9). */
export const VOLUME_STEP = 0.1;
export const clampVolume = (value: number): number =>
  Number.isFinite(value) ? Math.min(1, Math.max(0, Math.round(value * 10) / 10)) : 1;

export const systemTheme = (): ThemeMode =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';

const storedTheme = (): ThemeMode | null => {
  const value = readStorage(STORAGE_KEYS.preferredTheme);
  return value === 'light' || value === 'dark' ? value : null;
};

const storedVolume = (): number => {
  const value = readStorage(STORAGE_KEYS.volume);
  return value === null ? 1 : clampVolume(Number(value));
};

interface PrefsState {
  theme: ThemeMode;
  volume: number;
  toggleTheme(): void;
  setVolume(volume: number): void;
}

/** Theme (stored, system default) and notification volume (stored). */
export const usePrefs = create<PrefsState>()((set, get) => ({
  theme: storedTheme() ?? systemTheme(),
  volume: storedVolume(),
  toggleTheme() {
    const theme = get().theme === 'dark' ? 'light' : 'dark';
    writeStorage(STORAGE_KEYS.preferredTheme, theme);
    set({ theme });
  },
  setVolume(volume) {
    const clamped = clampVolume(volume);
    writeStorage(STORAGE_KEYS.volume, String(clamped));
    set({ volume: clamped });
  },
}));
