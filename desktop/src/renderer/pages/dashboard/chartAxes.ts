/** How the dashboard's bar charts label their axes (issue 13: dd/MM, whole numbers). */

/** A day bucket ('2025-03-07') reads as dd/MM; user names and hours ('14:00') stay. */
export const chartLabel = (row: Record<string, string | number>): string => {
  const raw = String(row.nome ?? row.horario ?? row.data ?? '');
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  return day ? `${day[3]}/${day[2]}` : raw;
};

/** Ticket counts are whole numbers: fractional ticks get no label. */
export const countTick = (value: number): string => (Number.isInteger(value) ? String(value) : '');
