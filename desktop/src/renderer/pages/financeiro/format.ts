/** Prices in the Brazilian locale, currency BRL (admin §9), whatever the interface language. */
export const formatBRL = (value: string | number): string =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(Number(value));

/** A calendar day (`yyyy-MM-dd`) in the interface language, without a time-zone shift. */
export function formatDay(day: string, lang: string): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString(lang, { timeZone: 'UTC' });
}
