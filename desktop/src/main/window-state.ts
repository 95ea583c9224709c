import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const stateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(200).max(20_000),
  height: z.number().int().min(200).max(20_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof stateSchema>;

export const DEFAULT_SIZE = { width: 1280, height: 800 };
/** How much of the window must stay on a screen for the saved place to be used. */
const MIN_VISIBLE = 100;

/** The saved state, or null when the file is missing, damaged or from an older shape. */
export function parseWindowState(raw: string | null): WindowState | null {
  if (!raw) return null;
  try {
    const parsed = stateSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const overlap = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) >= MIN_VISIBLE &&
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)) >= MIN_VISIBLE;

/**
 * Where to open the window: the saved place if enough of it is on a screen that still exists
 * (a monitor may have been unplugged), else the default size centred on the primary screen.
 */
export function restoreBounds(saved: WindowState | null, workAreas: readonly Rect[]): WindowState {
  const primary = workAreas[0] ?? { x: 0, y: 0, ...DEFAULT_SIZE };
  if (saved && workAreas.some((area) => overlap(saved, area))) return saved;
  const width = Math.min(DEFAULT_SIZE.width, primary.width);
  const height = Math.min(DEFAULT_SIZE.height, primary.height);
  return {
    x: primary.x + Math.round((primary.width - width) / 2),
    y: primary.y + Math.round((primary.height - height) / 2),
    width,
    height,
    maximized: saved?.maximized ?? false,
  };
}
