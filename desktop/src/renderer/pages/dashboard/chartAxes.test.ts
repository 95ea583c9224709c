import { describe, expect, it } from 'vitest';
import { chartLabel, countTick } from './chartAxes';

describe('dashboard chart axes (issue 13)', () => {
  it.each([
    [{ data: '2025-03-07', total: 2 }, '07/03'],
    [{ data: '2025-12-31T00:00:00.000Z', total: 1 }, '31/12'],
    [{ horario: '14:00', total: 1 }, '14:00'],
    [{ nome: 'Ana Admin', quantidade: 3 }, 'Ana Admin'],
  ])('%j → %s', (row, label) => {
    expect(chartLabel(row)).toBe(label);
  });

  it.each([
    [0, '0'],
    [1, '1'],
    [0.5, ''],
    [2.25, ''],
  ])('the count axis labels %d as %j', (value, label) => {
    expect(countTick(value)).toBe(label);
  });
});
