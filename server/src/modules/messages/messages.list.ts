import type { DataSource } from 'typeorm';
import { AppError } from '../../http/errors.js';
import { loadTicket } from '../tickets/index.js';
import { assertCanOpen, type Viewer } from '../tickets/index.js';
import { MESSAGE_VIEW_SQL, type MessageView } from './messages.queries.js';

export const MESSAGES_PAGE_SIZE = 20;

/**
 * `GET /messages/{ticketId}`: the thread of the ticket's contact on its connection (all its
 * tickets, so earlier conversations show above), in pages from the newest back; within a page
 * the messages run oldest first, as Whaticket answers, with the thread's `count`.
 */
export async function listThread(
  ds: DataSource,
  viewer: Viewer,
  ticketId: number,
  query: { pageNumber: number; cursor?: string },
): Promise<{
  messages: MessageView[];
  hasMore: boolean;
  count: number;
  ticket: unknown;
  nextCursor: string | null;
}> {
  const ticket = await loadTicket(ds, viewer.companyId, ticketId);
  assertCanOpen(viewer, ticket);
  const params: unknown[] = [viewer.companyId, ticket.contactId, ticket.whatsappId];
  let where = `m."companyId" = $1 AND m."contactId" = $2 AND m."whatsappId" IS NOT DISTINCT FROM $3`;
  let offset = (query.pageNumber - 1) * MESSAGES_PAGE_SIZE;
  if (query.cursor) {
    const [ts, id] = Buffer.from(query.cursor, 'base64url').toString().split('|');
    if (!ts || Number.isNaN(Date.parse(ts)) || !Number.isInteger(Number(id)))
      throw new AppError('ERR_VALIDATION');
    params.push(ts, Number(id));
    where += ` AND (m."createdAt", m.id) < ($4::timestamptz, $5)`;
    offset = 0;
  }
  const rows = (await ds.query(
    `${MESSAGE_VIEW_SQL} WHERE ${where} ORDER BY m."createdAt" DESC, m.id DESC
      LIMIT ${MESSAGES_PAGE_SIZE + 1} OFFSET ${offset}`,
    params,
  )) as MessageView[];
  const [{ count }] = (await ds.query(
    `SELECT count(*)::int AS count FROM messages m WHERE m."companyId" = $1 AND m."contactId" = $2
      AND m."whatsappId" IS NOT DISTINCT FROM $3`,
    params.slice(0, 3),
  )) as [{ count: number }];
  const hasMore = rows.length > MESSAGES_PAGE_SIZE;
  const page = rows.slice(0, MESSAGES_PAGE_SIZE);
  const last = page[page.length - 1];
  const cursorTs = last && new Date(last.createdAt as unknown as string).toISOString();
  return {
    messages: [...page].reverse(),
    count,
    ticket,
    hasMore,
    nextCursor:
      hasMore && last ? Buffer.from(`${cursorTs}|${last.id}`).toString('base64url') : null,
  };
}
