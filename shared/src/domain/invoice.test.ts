import { describe, expect, it } from 'vitest';
import {
  addMonths,
  invoiceStatus,
  invoiceStatusLabel,
  recurrenceMonths,
  renewedDueDate,
} from './invoice.js';

// São Paulo is UTC-3: 22:00 local on 10 June is 01:00Z on 11 June.
const saoPaulo = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00-03:00`);

describe('invoiceStatus (admin §4)', () => {
  const today = saoPaulo('2025-06-10', '12:00');
  it.each([
    ['paid', '2025-01-01', 'paid', 'Pago'],
    ['paid', '2025-12-01', 'paid', 'Pago'],
    ['open', '2025-06-09', 'overdue', 'Vencido'],
    ['open', '2024-06-10', 'overdue', 'Vencido'],
    ['open', '2025-06-10', 'open', 'Em Aberto'],
    ['open', '2025-06-11', 'open', 'Em Aberto'],
    ['pending', '2025-06-11', 'open', 'Em Aberto'],
    ['pending', '2025-06-09', 'overdue', 'Vencido'],
  ] as const)('%s due %s → %s (%s)', (status, dueDate, expected, label) => {
    expect(invoiceStatus({ status, dueDate }, today)).toBe(expected);
    expect(invoiceStatusLabel({ status, dueDate }, today)).toBe(label);
  });

  it.each([
    // due, local day, local time, expected: "today" is the company's day, not UTC's
    ['2025-06-10', '2025-06-10', '22:00', 'open'],
    ['2025-06-10', '2025-06-10', '23:59', 'open'],
    ['2025-06-10', '2025-06-11', '00:00', 'overdue'],
    ['2025-06-11', '2025-06-10', '21:30', 'open'],
  ] as const)('due %s at %s %s São Paulo → %s', (dueDate, day, time, expected) => {
    expect(invoiceStatus({ status: 'open', dueDate }, saoPaulo(day, time))).toBe(expected);
  });

  it('another zone decides its own today', () => {
    const at = saoPaulo('2025-06-10', '22:00'); // 11 June 01:00 in UTC
    expect(invoiceStatus({ status: 'open', dueDate: '2025-06-10' }, at, 'UTC')).toBe('overdue');
    expect(invoiceStatus({ status: 'open', dueDate: '2025-06-10' }, at)).toBe('open');
  });
});

describe('recurrence months (admin §4)', () => {
  it.each([
    ['MENSAL', 1],
    ['BIMESTRAL', 2],
    ['TRIMESTRAL', 3],
    ['SEMESTRAL', 6],
    ['ANUAL', 12],
    ['', 1],
    [null, 1],
  ] as const)('%s → %i', (recurrence, months) => {
    expect(recurrenceMonths(recurrence)).toBe(months);
  });
});

describe('addMonths', () => {
  it.each([
    ['2025-01-15', 1, '2025-02-15'],
    ['2025-01-31', 1, '2025-02-28'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2025-03-31', 1, '2025-04-30'],
    ['2025-11-30', 2, '2026-01-30'],
    ['2025-12-31', 12, '2026-12-31'],
    ['2025-08-31', 6, '2026-02-28'],
    ['2025-05-10', 0, '2025-05-10'],
  ] as const)('%s + %i → %s', (day, months, expected) => {
    expect(addMonths(day, months)).toBe(expected);
  });
});

describe('renewedDueDate: from the later of due date and payment day', () => {
  it.each([
    // current due, paid on, recurrence, new due
    ['2025-06-10', '2025-06-05', 'MENSAL', '2025-07-10'], // early: keeps the days left
    ['2025-06-10', '2025-06-10', 'MENSAL', '2025-07-10'],
    ['2025-06-10', '2025-06-20', 'MENSAL', '2025-07-20'], // late: from the payment
    ['2025-06-10', '2025-06-05', 'TRIMESTRAL', '2025-09-10'],
    ['2025-06-10', '2025-06-05', 'ANUAL', '2026-06-10'],
    ['2025-06-10', '2025-06-05', 'SEMESTRAL', '2025-12-10'],
    ['2025-06-10', '2025-06-05', 'BIMESTRAL', '2025-08-10'],
    [null, '2025-06-05', 'MENSAL', '2025-07-05'],
  ] as const)('due %s, paid %s, %s → %s', (due, paid, recurrence, expected) => {
    expect(renewedDueDate(due, paid, recurrence)).toBe(expected);
  });
});
