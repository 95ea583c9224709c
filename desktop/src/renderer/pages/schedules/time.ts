// Times of schedules are stored as instants and shown in the company's zone (the `timezone`
// setting, default America/Sao_Paulo), whatever the browser's zone: the dialog reads and writes
// wall time (DD/MM/YYYY and HH:mm, core §5), which the server reads in the company's zone.
import { localTime, TIME_ZONE_SETTING, timeZoneOr } from '@atende/shared';

const pad = (n: number) => String(n).padStart(2, '0');
export const HOUR_MS = 3_600_000;

/** The company's zone from the signed-in user's company settings. */
export function companyZone(
  settings: readonly { key: string; value: string | null }[] | undefined,
): string {
  return timeZoneOr(settings?.find((s) => s.key === TIME_ZONE_SETTING)?.value ?? undefined);
}

/** `DD/MM/YYYY` and `HH:mm` of an instant in the zone. */
export function wallParts(at: Date | number | string, zone: string) {
  const { day, minutes } = localTime(new Date(at), zone);
  const [y, m, d] = day.split('-');
  return { date: `${d}/${m}/${y}`, time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` };
}

/** `DD/MM/YYYY HH:mm` in the zone. */
export const formatWall = (at: Date | number | string, zone: string) => {
  const p = wallParts(at, zone);
  return `${p.date} ${p.time}`;
};

/** The dialog's default send time: one hour ahead (core §5). */
export const defaultSendAt = (now: number, zone: string) => wallParts(now + HOUR_MS, zone);

/** `DD/MM/YYYY` → `YYYY-MM-DD` when it names a real day, else null. */
export function parseDay(text: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [, d, mo, y] = m as unknown as [string, string, string, string];
  const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (at.getUTCFullYear() !== Number(y) || at.getUTCMonth() !== Number(mo) - 1) return null;
  if (at.getUTCDate() !== Number(d) || Number(y) < 1900) return null;
  return `${y}-${mo}-${d}`;
}

export const isTime = (text: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(text.trim());

/** The wall time the server reads in the company's zone (`YYYY-MM-DDTHH:mm`). */
export function wallString(date: string, time: string): string | null {
  const day = parseDay(date);
  return day && isTime(time) ? `${day}T${time.trim()}` : null;
}

/**
 * A Date whose browser-local fields are the zone's wall time at `at`: the calendar lays events
 * out in the browser's zone, so this puts them where the company's clock says.
 */
export function displayDate(at: Date | number | string, zone: string): Date {
  const { day, minutes } = localTime(new Date(at), zone);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, Math.floor(minutes / 60), minutes % 60);
}
