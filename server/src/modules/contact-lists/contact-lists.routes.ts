import { Router } from 'express';
import { contactListEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { PAGE_SIZE } from '../../http/paging.js';
import { serve } from '../../http/route.js';
import { discardUploads, readHead, receiveUploads } from '../../whatsapp/media-upload.js';
import { IMPORT_MAX_BYTES, sheetKindOf, sheetMatches } from '../contacts/index.js';
import {
  contactListItemOf,
  contactListOf,
  contactListsOf,
  emitItem,
  emitList,
  emitListCount,
  ITEM_COLUMNS,
  type ContactListItemRow,
  type ContactListRow,
} from './contact-lists.service.js';
import {
  importErrorsCsv,
  importsOf,
  importView,
  sampleSheet,
  scheduleListCheck,
  startImport,
} from './imports.js';
import { canonicalNumber } from './numbers.js';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** A number a person typed, in the list's canonical form; ERR_CONTACT_LIST_NUMBER otherwise. */
function listNumber(raw: string): string {
  const number = canonicalNumber(raw);
  if (!number) throw new AppError('ERR_CONTACT_LIST_NUMBER');
  return number;
}

/** Contact lists and their items (secondary §2, §7); every query carries the caller's company. */
export function contactListsRoutes(app: AppContext): Router {
  const router = Router();
  const checkLater = (companyId: number, contactListId: number) =>
    void scheduleListCheck(app, companyId, contactListId).catch(() => undefined);

  serve(router, app, api.listContactLists, async ({ scope, query }) => {
    const { rows, count } = await contactListsOf(app.ds, scope.companyId, {
      search: query.searchParam,
      limit: PAGE_SIZE,
      offset: (query.pageNumber - 1) * PAGE_SIZE,
    });
    return { records: rows, count, hasMore: count > query.pageNumber * PAGE_SIZE };
  });

  serve(router, app, api.contactListList, async ({ scope }) => {
    return (await contactListsOf(app.ds, scope.companyId)).rows;
  });

  // Before '/contact-lists/:id', which would read 'sample' as an id.
  serve(router, app, api.contactListSample, async ({ res }) => {
    res
      .status(200)
      .set({
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': 'attachment; filename="planilha.xlsx"',
        'cache-control': 'no-store',
      })
      .send(await sampleSheet());
    return undefined;
  });

  serve(router, app, api.showContactList, ({ scope, params }) =>
    contactListOf(app.ds, scope.companyId, params.id),
  );

  serve(router, app, api.createContactList, async ({ scope, body }) => {
    const [row] = (await app.ds.query(
      `INSERT INTO contact_lists ("companyId", name) VALUES ($1, $2)
       RETURNING id, "companyId", name, "createdAt", "updatedAt", 0 AS "contactsCount"`,
      [scope.companyId, body.name],
    )) as ContactListRow[];
    emitList(app, scope.companyId, 'create', row!);
    return row!;
  });

  serve(router, app, api.updateContactList, async ({ scope, params, body }) => {
    const [, changed] = (await app.ds.query(
      `UPDATE contact_lists SET name = $3, "updatedAt" = now() WHERE id = $1 AND "companyId" = $2`,
      [params.id, scope.companyId, body.name],
    )) as [unknown, number];
    if (!changed) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
    const row = await contactListOf(app.ds, scope.companyId, params.id);
    emitList(app, scope.companyId, 'update', row);
    return row;
  });

  serve(router, app, api.deleteContactList, async ({ scope, params }) => {
    const [rows] = (await app.ds.query(
      `DELETE FROM contact_lists WHERE id = $1 AND "companyId" = $2 RETURNING id`,
      [params.id, scope.companyId],
    )) as [{ id: number }[], number];
    if (!rows.length) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
    emitList(app, scope.companyId, 'delete', { id: params.id });
    return { message: 'Contact list deleted' };
  });

  // The sheet is read only after route() authenticated the caller; it is streamed to a temp
  // file, its declared kind checked against its first bytes, then handed to the import job.
  serve(router, app, api.uploadContactList, async ({ user, scope, params, req, res }) => {
    await contactListOf(app.ds, scope.companyId, params.id);
    const files = await receiveUploads(app, req, res, {
      fields: ['file', 'medias'],
      maxFiles: 1,
      maxBytes: IMPORT_MAX_BYTES,
      accept: (file) => sheetKindOf(file) !== undefined,
      matches: () => true,
    }).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'ERR_UNSUPPORTED_MEDIA_TYPE') {
        throw new AppError('ERR_IMPORT_FILE', { details: err.options.details });
      }
      throw err;
    });
    try {
      const [file] = files;
      if (!file) throw new AppError('ERR_IMPORT_FILE');
      const kind = sheetKindOf(file)!;
      if (!sheetMatches(kind, await readHead(file.path))) {
        throw new AppError('ERR_IMPORT_MISMATCH', { details: [file.originalName] });
      }
      const row = await startImport(app, scope.companyId, user.id, params.id, file, kind);
      return importView(row);
    } finally {
      await discardUploads(files);
    }
  });

  serve(router, app, api.contactListImports, async ({ scope, params }) => {
    await contactListOf(app.ds, scope.companyId, params.id);
    return (await importsOf(app, scope.companyId, params.id)).map(importView);
  });

  serve(router, app, api.contactListImportErrors, async ({ scope, params, res }) => {
    const csv = await importErrorsCsv(app, scope.companyId, params.id, params.importId);
    res
      .status(200)
      .set({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="importacao-${params.importId}-erros.csv"`,
        'cache-control': 'no-store',
      })
      .send(csv);
    return undefined;
  });

  serve(router, app, api.listContactListItems, async ({ scope, query }) => {
    await contactListOf(app.ds, scope.companyId, query.contactListId);
    const search = query.searchParam ? `%${query.searchParam}%` : null;
    const digits = query.searchParam.replace(/\D/g, '');
    const rows = (await app.ds.query(
      `SELECT ${ITEM_COLUMNS}, count(*) OVER ()::int AS total FROM contact_list_items
        WHERE "companyId" = $1 AND "contactListId" = $2
          AND ($3::text IS NULL OR name ILIKE $3 OR email ILIKE $3
               OR ($4::text <> '' AND number LIKE '%' || $4 || '%'))
        ORDER BY lower(name), id LIMIT $5 OFFSET $6`,
      [
        scope.companyId,
        query.contactListId,
        search,
        digits,
        PAGE_SIZE,
        (query.pageNumber - 1) * PAGE_SIZE,
      ],
    )) as (ContactListItemRow & { total: number })[];
    const count = rows[0]?.total ?? 0;
    return {
      contacts: rows.map(({ total: _t, ...r }) => r),
      count,
      hasMore: rows.length === PAGE_SIZE && count > query.pageNumber * PAGE_SIZE,
    };
  });

  serve(router, app, api.showContactListItem, ({ scope, params }) =>
    contactListItemOf(app.ds, scope.companyId, params.id),
  );

  serve(router, app, api.createContactListItem, async ({ scope, body }) => {
    await contactListOf(app.ds, scope.companyId, body.contactListId);
    const number = listNumber(body.number);
    const [row] = (await app.ds
      .query(
        `INSERT INTO contact_list_items ("companyId", "contactListId", name, number, email)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${ITEM_COLUMNS}`,
        [scope.companyId, body.contactListId, body.name, number, body.email.toLowerCase()],
      )
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw new AppError('ERR_CONTACT_LIST_ITEM_EXISTS');
        throw err;
      })) as ContactListItemRow[];
    emitItem(app, scope.companyId, row!.contactListId, 'create', row!);
    void emitListCount(app, scope.companyId, row!.contactListId);
    checkLater(scope.companyId, row!.contactListId);
    return row!;
  });

  serve(router, app, api.updateContactListItem, async ({ scope, params, body }) => {
    const before = await contactListItemOf(app.ds, scope.companyId, params.id);
    const number = body.number !== undefined ? listNumber(body.number) : before.number;
    const [rows] = (await app.ds
      .query(
        `UPDATE contact_list_items SET name = $3, number = $4::varchar, email = $5,
                "isWhatsappValid" = CASE WHEN number = $4::varchar THEN "isWhatsappValid" END,
                "updatedAt" = now()
          WHERE id = $1 AND "companyId" = $2 RETURNING ${ITEM_COLUMNS}`,
        [
          params.id,
          scope.companyId,
          body.name ?? before.name,
          number,
          (body.email ?? before.email).toLowerCase(),
        ],
      )
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw new AppError('ERR_CONTACT_LIST_ITEM_EXISTS');
        throw err;
      })) as [ContactListItemRow[], number];
    const row = rows[0];
    if (!row) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
    emitItem(app, scope.companyId, row.contactListId, 'update', row);
    if (row.isWhatsappValid === null) checkLater(scope.companyId, row.contactListId);
    return row;
  });

  serve(router, app, api.deleteContactListItem, async ({ scope, params }) => {
    const [rows] = (await app.ds.query(
      `DELETE FROM contact_list_items WHERE id = $1 AND "companyId" = $2
       RETURNING id, "contactListId"`,
      [params.id, scope.companyId],
    )) as [{ id: number; contactListId: number }[], number];
    const row = rows[0];
    if (!row) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
    emitItem(app, scope.companyId, row.contactListId, 'delete', { id: row.id });
    void emitListCount(app, scope.companyId, row.contactListId);
    return { message: 'Contact deleted' };
  });

  return router;
}
