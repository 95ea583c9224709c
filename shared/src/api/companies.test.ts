import { describe, expect, it } from 'vitest';
import { dueDateOrNull, dueDateTint, nextDueDate } from './companies.js';

describe('company row tint by days to due date (admin §4)', () => {
  it.each([
    [6, null],
    [5, 'paleYellow'],
    [4, 'amber'],
    [1, 'amber'],
    [0, 'amber'],
    [-1, 'amber'],
    [-3, 'amber'],
    [-4, 'red'],
    [-5, null],
    [30, null],
    [null, null],
  ] as const)('%s days → %s', (days, tint) => {
    expect(dueDateTint(days)).toBe(tint);
  });
});

describe("'+ Vencimento' (admin §4)", () => {
  it.each([
    ['MENSAL', '2025-01-15', '2025-02-15'],
    ['BIMESTRAL', '2025-01-15', '2025-03-15'],
    ['TRIMESTRAL', '2025-01-15', '2025-04-15'],
    ['SEMESTRAL', '2025-01-15', '2025-07-15'],
    ['ANUAL', '2025-01-15', '2026-01-15'],
    ['MENSAL', '2025-01-31', '2025-02-28'],
    ['ANUAL', '2024-02-29', '2025-02-28'],
    ['', '2025-01-15', '2025-02-15'],
  ])('%s from %s → %s', (recurrence, due, next) => {
    expect(nextDueDate(due, recurrence, '2000-01-01')).toBe(next);
  });

  it('starts from today when there is no due date', () => {
    expect(nextDueDate(null, 'TRIMESTRAL', '2025-05-20')).toBe('2025-08-20');
    expect(nextDueDate('', 'MENSAL', '2025-05-20')).toBe('2025-06-20');
  });
});

describe('due date sent as null when empty or invalid (admin §5)', () => {
  it.each([
    ['', null],
    [null, null],
    ['2025-02-30', null],
    ['amanhã', null],
    ['2025-02-28', '2025-02-28'],
    ['2025-02-28T00:00:00.000Z', '2025-02-28'],
  ])('%j → %j', (value, sent) => {
    expect(dueDateOrNull(value)).toBe(sent);
  });
});
