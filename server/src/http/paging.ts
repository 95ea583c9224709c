import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** Page size of the admin lists; the spec leaves it to the server (admin §9). */
export const PAGE_SIZE = 20;

/** One page of a query (pageNumber from 1) with the total and whether another page follows. */
export async function pageOf<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  pageNumber: number,
  size = PAGE_SIZE,
): Promise<{ rows: T[]; count: number; hasMore: boolean }> {
  const [rows, count] = await qb
    .skip((pageNumber - 1) * size)
    .take(size)
    .getManyAndCount();
  return { rows, count, hasMore: count > pageNumber * size };
}
