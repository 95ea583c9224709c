/** core §2, §9: the dashboard filters by date or by a period of 3 to 90 days. */
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;

export type DashboardFilter =
  { type: 'period'; days: number | null } | { type: 'date'; dateFrom: string; dateTo: string };

export interface DashboardQuery {
  days?: number;
  date_from?: string;
  date_to?: string;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The query of GET /dashboard, or null when the filter has none of days, date_from, date_to
 * (core §5: 'Parametrize o filtro').
 */
export function dashboardQuery(filter: DashboardFilter): DashboardQuery | null {
  if (filter.type === 'period') return filter.days ? { days: filter.days } : null;
  const query: DashboardQuery = {};
  if (filter.dateFrom) query.date_from = filter.dateFrom;
  if (filter.dateTo) query.date_to = filter.dateTo;
  return query.date_from || query.date_to ? query : null;
}

/** The charts' initialDate/finalDate (yyyy-MM-dd) for the same filter. */
export function chartRange(
  query: DashboardQuery,
  now: Date,
): { initialDate?: string; finalDate?: string } {
  if (query.days !== undefined) {
    return {
      initialDate: isoDay(new Date(now.getTime() - query.days * 86_400_000)),
      finalDate: isoDay(now),
    };
  }
  return { initialDate: query.date_from, finalDate: query.date_to };
}

/** Average times come in minutes and show as hours and minutes (core §9). */
export function splitMinutes(total: number): { hours: number; minutes: number } {
  const rounded = Math.round(total);
  return { hours: Math.floor(rounded / 60), minutes: rounded % 60 };
}
