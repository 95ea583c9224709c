/**
 * Invoice rules (admin §3, §4): the display status of an invoice, and how far a payment moves the
 * company's due date. Due dates are calendar dates (`yyyy-MM-dd`) in the company's time zone, as
 * in `subscription.ts`.
 */
import { DEFAULT_TIME_ZONE, localDay } from './zone.js';

/** Invoice display status (admin §4). */
export type InvoiceDisplayStatus = 'paid' | 'overdue' | 'open';

/** The labels the Faturas page shows (admin §4, quoted). */
export const INVOICE_STATUS_LABELS: Record<InvoiceDisplayStatus, string> = {
  paid: 'Pago',
  overdue: 'Vencido',
  open: 'Em Aberto',
};

/** A stored due date is a date; a full timestamp is read as its day in the zone. */
const dueDayOf = (dueDate: string, timeZone: string): string =>
  /^\d{4}-\d{2}-\d{2}$/.test(dueDate) ? dueDate : localDay(Date.parse(dueDate), timeZone);

/**
 * 'Pago' when the status is paid; 'Vencido' when the due date is before today (in the company's
 * zone) and it is not paid; 'Em Aberto' otherwise (due today counts as open).
 */
export function invoiceStatus(
  invoice: { status: string; dueDate: string },
  now: Date | number,
  timeZone: string = DEFAULT_TIME_ZONE,
): InvoiceDisplayStatus {
  if (invoice.status === 'paid') return 'paid';
  return dueDayOf(invoice.dueDate, timeZone) < localDay(now, timeZone) ? 'overdue' : 'open';
}

/** The label of `invoiceStatus` ('Pago' / 'Vencido' / 'Em Aberto'). */
export const invoiceStatusLabel = (
  invoice: { status: string; dueDate: string },
  now: Date | number,
  timeZone: string = DEFAULT_TIME_ZONE,
): string => INVOICE_STATUS_LABELS[invoiceStatus(invoice, now, timeZone)];

/**
 * Months one period of each recurrence lasts (admin §4, the '+ Vencimento' button and a paid
 * invoice alike). An unknown recurrence counts as MENSAL.
 */
export const RECURRENCE_MONTHS: Readonly<Record<string, number>> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

export const recurrenceMonths = (recurrence: string | null | undefined): number =>
  (recurrence && RECURRENCE_MONTHS[recurrence]) || 1;

/**
 * The calendar day `months` months after `day`; a day the target month lacks becomes its last
 * day (31 Jan + 1 month = 28 or 29 Feb).
 */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(Date.UTC(year, month, Math.min(d, last)));
  return date.toISOString().slice(0, 10);
}

/**
 * The due date after a payment: one recurrence period from the later of the current due date
 * and the day of the payment (a late payer does not get the days already used for free, an early
 * one does not lose the days left). No current due date: from the payment day.
 */
export function renewedDueDate(
  currentDueDate: string | null,
  paidDay: string,
  recurrence: string | null | undefined,
): string {
  const from = currentDueDate && currentDueDate > paidDay ? currentDueDate : paidDay;
  return addMonths(from, recurrenceMonths(recurrence));
}
