import { describe, expect, it } from 'vitest';
import { invoiceStatus } from './invoice.js';

const today = new Date('2025-06-10T15:00:00Z');

describe('invoiceStatus (admin §4)', () => {
  it.each([
    ['paid', '2025-01-01', 'paid'],
    ['paid', '2025-12-01', 'paid'],
    ['open', '2025-06-09', 'overdue'],
    ['open', '2025-06-10', 'open'],
    ['open', '2025-06-10T00:00:00Z', 'open'],
    ['pending', '2025-06-11', 'open'],
  ] as const)('%s due %s → %s', (status, dueDate, expected) => {
    expect(invoiceStatus({ status, dueDate }, today)).toBe(expected);
  });
});
