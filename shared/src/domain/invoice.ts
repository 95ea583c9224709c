/** Invoice display status (admin §4). */
export type InvoiceDisplayStatus = 'paid' | 'overdue' | 'open';

/** YYYY-MM-DD of an instant in UTC; due dates are calendar dates. */
const dayOf = (value: string | Date): string =>
  (typeof value === 'string' ? new Date(value) : value).toISOString().slice(0, 10);

/** 'Pago' when paid; 'Vencido' when the due date is before today; 'Em Aberto' otherwise. */
export function invoiceStatus(
  invoice: { status: string; dueDate: string },
  today: Date,
): InvoiceDisplayStatus {
  if (invoice.status === 'paid') return 'paid';
  return dayOf(invoice.dueDate) < dayOf(today) ? 'overdue' : 'open';
}
