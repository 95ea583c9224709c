import type { ContactListAnswer, ContactListItemAnswer } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';

type Db = Pick<EntityManager, 'query'>;

export interface ContactListRow {
  id: number;
  companyId: number;
  name: string;
  contactsCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ContactListItemRow {
  id: number;
  companyId: number;
  contactListId: number;
  name: string;
  number: string;
  email: string;
  isWhatsappValid: boolean | null;
  createdAt: Date;
  updatedAt: Date;
}

const LIST_COLUMNS = `l.id, l."companyId", l.name, l."createdAt", l."updatedAt",
  (SELECT count(*)::int FROM contact_list_items i WHERE i."contactListId" = l.id) AS "contactsCount"`;
export const ITEM_COLUMNS = `id, "companyId", "contactListId", name, number, email,
  "isWhatsappValid", "createdAt", "updatedAt"`;

/** One list of the company with its contacts count; ERR_NO_CONTACT_LIST_FOUND otherwise. */
export async function contactListOf(
  db: Db,
  companyId: number,
  id: number,
  lock = false,
): Promise<ContactListRow> {
  const [row] = (await db.query(
    `SELECT ${LIST_COLUMNS} FROM contact_lists l WHERE l.id = $1 AND l."companyId" = $2
     ${lock ? 'FOR UPDATE OF l' : ''}`,
    [id, companyId],
  )) as ContactListRow[];
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  return row;
}

/** Lists of the company by name: a page (`limit`, `offset`) or all, filtered by `search`. */
export async function contactListsOf(
  db: Db,
  companyId: number,
  options: { search?: string; limit?: number; offset?: number } = {},
): Promise<{ rows: ContactListRow[]; count: number }> {
  const search = options.search ? `%${options.search}%` : null;
  const rows = (await db.query(
    `SELECT ${LIST_COLUMNS}, count(*) OVER ()::int AS total FROM contact_lists l
      WHERE l."companyId" = $1 AND ($2::text IS NULL OR l.name ILIKE $2)
      ORDER BY lower(l.name), l.id LIMIT $3 OFFSET $4`,
    [companyId, search, options.limit ?? null, options.offset ?? 0],
  )) as (ContactListRow & { total: number })[];
  let count = rows[0]?.total ?? 0;
  if (!rows.length && (options.offset ?? 0) > 0) {
    const [c] = (await db.query(
      `SELECT count(*)::int AS n FROM contact_lists l
        WHERE l."companyId" = $1 AND ($2::text IS NULL OR l.name ILIKE $2)`,
      [companyId, search],
    )) as { n: number }[];
    count = c?.n ?? 0;
  }
  return { rows: rows.map(({ total: _total, ...r }) => r), count };
}

/** One item of the company; ERR_NO_CONTACT_LIST_ITEM_FOUND otherwise. */
export async function contactListItemOf(
  db: Db,
  companyId: number,
  id: number,
): Promise<ContactListItemRow> {
  const [row] = (await db.query(
    `SELECT ${ITEM_COLUMNS} FROM contact_list_items WHERE id = $1 AND "companyId" = $2`,
    [id, companyId],
  )) as ContactListItemRow[];
  if (!row) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  return row;
}

type Wire<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] };

/** Live updates of lists (secondary §4): `company-{id}-ContactList`. */
export function emitList(
  app: AppContext,
  companyId: number,
  action: 'create' | 'update' | 'delete' | 'reload',
  row: ContactListRow | { id: number },
): void {
  app.realtime.toCompany(companyId, 'ContactList', {
    action,
    ...('name' in row && { record: row as unknown as Wire<ContactListAnswer> }),
    id: row.id,
  });
}

/** Live updates of items: `company-{id}-ContactListItem`, with the list they belong to. */
export function emitItem(
  app: AppContext,
  companyId: number,
  contactListId: number,
  action: 'create' | 'update' | 'delete' | 'reload',
  row?: ContactListItemRow | { id: number },
): void {
  app.realtime.toCompany(companyId, 'ContactListItem', {
    action,
    contactListId,
    ...(row && 'name' in row && { record: row as unknown as Wire<ContactListItemAnswer> }),
    ...(row && { id: row.id }),
  });
}

/** The list's count changed (items added or removed): its row again, for the lists page. */
export async function emitListCount(
  app: AppContext,
  companyId: number,
  contactListId: number,
): Promise<void> {
  const list = await contactListOf(app.ds, companyId, contactListId).catch(() => undefined);
  if (list) emitList(app, companyId, 'update', list);
}

/** An item as campaigns read it. */
export interface AudienceMember {
  id: number;
  name: string;
  number: string;
  email: string;
  isWhatsappValid: boolean | null;
}

/**
 * The members of a contact list, in id order, in pages of `batch` (keyset paging, so a list of
 * any size streams in constant memory). ERR_NO_CONTACT_LIST_FOUND when the list is not the
 * company's. Numbers are canonical (one row per person).
 */
export async function* listAudience(
  app: AppContext,
  companyId: number,
  contactListId: number,
  batch = 500,
): AsyncGenerator<AudienceMember[]> {
  await contactListOf(app.ds, companyId, contactListId);
  let after = 0;
  for (;;) {
    const rows = (await app.ds.query(
      `SELECT id, name, number, email, "isWhatsappValid" FROM contact_list_items
        WHERE "companyId" = $1 AND "contactListId" = $2 AND id > $3 ORDER BY id LIMIT $4`,
      [companyId, contactListId, after, batch],
    )) as AudienceMember[];
    if (!rows.length) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
    if (rows.length < batch) return;
  }
}
