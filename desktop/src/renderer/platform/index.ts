import type { Platform } from './types';

export type * from './types';

let current: Platform | null = null;

/** Installed once at start-up by the entry point (web) or the preload bridge (desktop). */
export function setPlatform(platform: Platform): void {
  current = platform;
}

export function getPlatform(): Platform {
  if (!current) throw new Error('No platform installed: call setPlatform() before rendering');
  return current;
}
