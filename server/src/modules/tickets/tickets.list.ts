import type { TicketListQuery } from '@atende/shared';
import { can } from '@atende/shared';
import type { DataSource } from 'typeorm';
import { AppError } from '../../http/errors.js';
import { loadTickets, type TicketView } from './tickets.queries.js';
import { isAdmin, visibleTicketsSql, type Viewer } from './visibility.js';

export const TICKETS_PAGE_SIZE = 40;

const encodeCursor = (ts: string, id: number) => Buffer.from(`${ts}|${id}`).toString('base64url');
function decodeCursor(cursor: string): [string, number] {
  const [ts, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const n = Number(id);
  if (!ts || !Number.isInteger(n) || Number.isNaN(Date.parse(ts)))
    throw new AppError('ERR_VALIDATION');
  return [ts, n];
}

/**
 * `GET /tickets` (core §7): every filter of the call table, restricted to what the viewer may see,
 * newest activity first. Open tickets of other users need show-all (tickets-manager:showall).
 */
export async function listTickets(
  ds: DataSource,
  viewer: Viewer,
  query: TicketListQuery,
): Promise<{ tickets: TicketView[]; hasMore: boolean; nextCursor: string | null }> {
  const params: unknown[] = [viewer.companyId];
  const where = ['t."companyId" = $1', visibleTicketsSql(viewer, params)];
  const p = (value: unknown) => `$${params.push(value)}`;
  const showAll = query.showAll && can(viewer.profile, 'tickets-manager:showall');

  if (query.status) where.push(`t.status = ${p(query.status)}`);
  if (!showAll) where.push(`(t.status <> 'open' OR t."userId" = ${p(viewer.id)})`);
  if (query.queueIds?.length) {
    const mayNoQueue = isAdmin(viewer) || viewer.allTicket === 'enabled';
    where.push(
      `(t."queueId" = ANY(${p(query.queueIds)}::int[])${mayNoQueue ? ' OR t."queueId" IS NULL' : ''})`,
    );
  }
  if (query.users?.length) where.push(`t."userId" = ANY(${p(query.users)}::int[])`);
  if (query.tags?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM ticket_tags tt WHERE tt."ticketId" = t.id AND tt."tagId" = ANY(${p(query.tags)}::int[]))`,
    );
  }
  if (query.withUnreadMessages) where.push('t."unreadMessages" > 0');
  if (query.isNotAssignedUser) where.push('t."userId" IS NULL');
  if (query.date)
    where.push(
      `t."createdAt" >= ${p(query.date.slice(0, 10))}::date AND t."createdAt" < $${params.length}::date + 1`,
    );
  if (query.updatedAt) {
    where.push(
      `t."updatedAt" >= ${p(query.updatedAt.slice(0, 10))}::date AND t."updatedAt" < $${params.length}::date + 1`,
    );
  }
  const search = query.searchParam.trim();
  if (search) {
    const digits = search.replace(/\D/g, '');
    // Message text through the full-text index, never LIKE over messages.
    where.push(`(lower(c.name) LIKE ${p(`%${search.toLowerCase()}%`)}
      ${digits.length >= 3 ? `OR c.number LIKE ${p(`%${digits}%`)}` : ''}
      OR t.id IN (SELECT m."ticketId" FROM messages m WHERE m."companyId" = $1
                    AND to_tsvector('simple', m.body) @@ plainto_tsquery('simple', ${p(search)})))`);
  }
  let offset = (query.pageNumber - 1) * TICKETS_PAGE_SIZE;
  if (query.cursor) {
    const [ts, id] = decodeCursor(query.cursor);
    where.push(`(t."updatedAt", t.id) < (${p(ts)}::timestamptz, ${p(id)})`);
    offset = 0;
  }
  const rows = (await ds.query(
    `SELECT t.id, t."updatedAt"::text AS ts FROM tickets t JOIN contacts c ON c.id = t."contactId"
      WHERE ${where.join(' AND ')}
      ORDER BY t."updatedAt" DESC, t.id DESC LIMIT ${TICKETS_PAGE_SIZE + 1} OFFSET ${offset}`,
    params,
  )) as { id: number; ts: string }[];
  const hasMore = rows.length > TICKETS_PAGE_SIZE;
  const page = rows.slice(0, TICKETS_PAGE_SIZE);
  const last = page[page.length - 1];
  return {
    tickets: await loadTickets(
      ds,
      viewer.companyId,
      page.map((r) => r.id),
    ),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last.ts, last.id) : null,
  };
}
