import {
  campaignEditability,
  type CampaignAnswer,
  type CampaignShippingAnswer,
} from '@atende/shared';

export type Campaign = CampaignAnswer;
export type Shipping = CampaignShippingAnswer;

/** What the user may change now (secondary §4), on the browser's clock. */
export const editabilityOf = (c: Campaign, now = new Date()) => campaignEditability(c, now);

/** A date as the tables show it (dd/MM/yyyy HH:mm in pt-BR). */
export function formatWhen(value: string | null, lang: string): string {
  if (!value) return '';
  return new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short' }).format(
    new Date(value),
  );
}

/** An ISO time as a datetime-local input wants it (local time, minutes). */
export function toLocalInput(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A CSV cell: quoted, and a text a spreadsheet would run as a formula (=, +, -, @, tab, CR at the
 * start) gets a leading apostrophe, so an exported reply can never execute.
 */
export function csvCell(value: unknown): string {
  let text = value == null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n');
}
