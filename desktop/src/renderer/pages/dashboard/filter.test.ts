import { describe, expect, it } from 'vitest';
import { chartRange, DASHBOARD_PERIODS, dashboardQuery, splitMinutes } from './filter';

describe('dashboard filter (core §2, §5, §9)', () => {
  it('offers the periods 3, 7, 15, 30, 60 and 90 days', () => {
    expect(DASHBOARD_PERIODS).toEqual([3, 7, 15, 30, 60, 90]);
  });

  it('needs at least one of days, date_from and date_to', () => {
    expect(dashboardQuery({ type: 'period', days: null })).toBeNull();
    expect(dashboardQuery({ type: 'date', dateFrom: '', dateTo: '' })).toBeNull();
    expect(dashboardQuery({ type: 'period', days: 7 })).toEqual({ days: 7 });
    expect(dashboardQuery({ type: 'date', dateFrom: '2026-01-01', dateTo: '' })).toEqual({
      date_from: '2026-01-01',
    });
  });

  it('gives the charts the same range', () => {
    const now = new Date('2026-03-31T12:00:00Z');
    expect(chartRange({ days: 30 }, now)).toEqual({
      initialDate: '2026-03-01',
      finalDate: '2026-03-31',
    });
    expect(chartRange({ date_from: '2026-01-01', date_to: '2026-01-31' }, now)).toEqual({
      initialDate: '2026-01-01',
      finalDate: '2026-01-31',
    });
  });

  it('shows minutes as hours and minutes', () => {
    expect(splitMinutes(0)).toEqual({ hours: 0, minutes: 0 });
    expect(splitMinutes(59.6)).toEqual({ hours: 1, minutes: 0 });
    expect(splitMinutes(135)).toEqual({ hours: 2, minutes: 15 });
  });
});
