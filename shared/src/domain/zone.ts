/**
 * Local time in a company's time zone, without a library: the calendar day and the minute of the
 * day it is somewhere, and the instant a local day and minute stand for. Due dates (subscription)
 * and the send governor's window and daily cap count in the company's zone.
 */
const DAY = 86_400_000;

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** The company setting naming its IANA time zone; absent or unknown: the default. */
export const TIME_ZONE_SETTING = 'timezone';

export interface LocalTime {
  /** `yyyy-MM-dd` */
  day: string;
  /** Minutes since local midnight. */
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is a zone this runtime knows. */
export function knownTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** A usable IANA zone name, else the default (a bad setting never breaks sign-in). */
export function timeZoneOr(timeZone: string | null | undefined): string {
  return timeZone && knownTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
}

function parts(at: number | Date, timeZone: string) {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return {
    y: Number(p.year),
    mo: Number(p.month),
    d: Number(p.day),
    h: Number(p.hour),
    mi: Number(p.minute),
    s: Number(p.second),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local day and minute of the day at `at` in `timeZone`. */
export function localTime(at: number | Date, timeZone: string): LocalTime {
  const p = parts(at, timeZone);
  return { day: `${p.y}-${pad(p.mo)}-${pad(p.d)}`, minutes: p.h * 60 + p.mi };
}

/** The calendar day (`yyyy-MM-dd`) it is at `instant` in `timeZone`. */
export function localDay(instant: number | Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  return localTime(instant, timeZoneOr(timeZone)).day;
}

/** The instant a local day and minute of the day stand for in the zone. */
export function zonedTime(day: string, minutes: number, timeZone: string): Date {
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, mo - 1, d, 0, minutes);
  const offsetAt = (ms: number) => {
    const p = parts(new Date(ms), timeZone);
    return Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) - Math.floor(ms / 1000) * 1000;
  };
  let at = wall - offsetAt(wall);
  at = wall - offsetAt(at);
  return new Date(at);
}

/** The calendar day `n` days after `day`. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}
