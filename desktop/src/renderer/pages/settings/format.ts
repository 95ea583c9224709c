/** A price in the Brazilian locale, in BRL (admin §9). */
export const money = (value: number): string =>
  new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(value);
