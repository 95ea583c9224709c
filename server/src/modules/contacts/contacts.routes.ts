import { Router } from 'express';
import { contactEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { csvCell } from '../../http/spreadsheet-cell.js';
import { discardUploads, receiveUploads } from '../../whatsapp/media-upload.js';
import { withChanges } from '../changes/index.js';
import {
  IMPORT_MAX_BYTES,
  importContacts,
  readSheetFile,
  rowsToContacts,
  sheetKindOf,
  sheetMatches,
} from './contacts.import.js';
import { logger } from '../../logger.js';
import {
  checkingConnection,
  numberOnWhatsApp,
  phoneContacts,
} from '../../whatsapp/number-check.js';
import {
  contactChange,
  findContactByNumber,
  insertContact,
  loadContact,
  loadContacts,
  updateContact,
} from './contacts.service.js';

export const CONTACTS_PAGE_SIZE = 20;

export function contactsRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.listContacts, async ({ scope, query }) => {
    const params: unknown[] = [scope.companyId];
    const where = ['c."companyId" = $1'];
    const search = query.searchParam.trim();
    if (search) {
      params.push(`%${search.toLowerCase()}%`, `%${search.replace(/\D/g, '') || search}%`);
      where.push(`(lower(c.name) LIKE $${params.length - 1} OR c.number LIKE $${params.length})`);
    }
    if (query.date) {
      params.push(query.date);
      where.push(`c."createdAt"::date = $${params.length}::date`);
    }
    if (query.dateStart) {
      params.push(query.dateStart);
      where.push(`c."createdAt" >= $${params.length}::date`);
    }
    if (query.dateEnd) {
      params.push(query.dateEnd);
      where.push(`c."createdAt" < $${params.length}::date + 1`);
    }
    const sqlWhere = where.join(' AND ');
    const [{ count }] = (await app.ds.query(
      `SELECT count(*)::int AS count FROM contacts c WHERE ${sqlWhere}`,
      params,
    )) as [{ count: number }];
    const ids = (await app.ds.query(
      `SELECT c.id FROM contacts c WHERE ${sqlWhere} ORDER BY lower(c.name), c.id
          LIMIT ${CONTACTS_PAGE_SIZE} OFFSET ${(query.pageNumber - 1) * CONTACTS_PAGE_SIZE}`,
      params,
    )) as { id: number }[];
    const contacts = await loadContacts(
      app.ds,
      scope.companyId,
      ids.map((r) => r.id),
    );
    return { contacts, count, hasMore: count > query.pageNumber * CONTACTS_PAGE_SIZE };
  });

  serve(router, app, api.contactList, async ({ scope }) => {
    return app.ds.query(
      `SELECT id, name, number, email, "profilePicUrl", "isGroup" FROM contacts
          WHERE "companyId" = $1 ORDER BY lower(name), id`,
      [scope.companyId],
    );
  });

  serve(router, app, api.exportContacts, async ({ scope, res }) => {
    const rows = (await app.ds.query(
      'SELECT name, number, email FROM contacts WHERE "companyId" = $1 ORDER BY lower(name), id',
      [scope.companyId],
    )) as { name: string; number: string; email: string }[];
    const lines = [
      'name,number,email',
      ...rows.map((r) => [r.name, r.number, r.email].map(csvCell).join(',')),
    ];
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', 'attachment; filename="contacts.csv"');
    res.send(`\uFEFF${lines.join('\r\n')}\r\n`);
    return undefined;
  });

  serve(router, app, api.showContact, ({ scope, params }) =>
    loadContact(app.ds, scope.companyId, params.id),
  );

  serve(router, app, api.createContact, async ({ scope, body, res }) => {
    // A known number is not an error: the dialog offers the existing contact (200).
    const existing = await findContactByNumber(app.ds, scope.companyId, body.number);
    if (existing) {
      res.status(200).json({ alreadyExists: true, existingContact: existing });
      return undefined;
    }
    // A number WhatsApp does not know is refused the way Whaticket clients read it (200).
    const via = await checkingConnection(app, scope.companyId);
    if (via && (await numberOnWhatsApp(app, scope.companyId, via, body.number)) === 'missing') {
      res
        .status(200)
        .json({ invalido: true, number: body.number, error: 'ERR_WAPP_INVALID_CONTACT' });
      return undefined;
    }
    const created = await withChanges(app, scope.companyId, (tx, changes) =>
      insertContact(tx, scope.companyId, body, changes),
    );
    if (!created) {
      const winner = await findContactByNumber(app.ds, scope.companyId, body.number);
      res.status(200).json({ alreadyExists: true, existingContact: winner });
      return undefined;
    }
    return created;
  });

  serve(router, app, api.updateContact, ({ scope, params, body }) =>
    withChanges(app, scope.companyId, (tx, changes) =>
      updateContact(tx, scope.companyId, params.id, body, changes),
    ),
  );

  serve(router, app, api.deleteContact, async ({ scope, params }) => {
    await withChanges(app, scope.companyId, async (tx, changes) => {
      const contact = await loadContact(tx, scope.companyId, params.id);
      await tx.query('DELETE FROM contacts WHERE id = $1 AND "companyId" = $2', [
        params.id,
        scope.companyId,
      ]);
      changes.push({
        ...contactChange(contact),
        action: 'delete',
        payload: { action: 'delete', contactId: contact.id },
      });
    });
    return { message: 'Contact deleted' };
  });

  serve(router, app, api.importContacts, async ({ scope, body }) => {
    if (body.contacts) return importContacts(app, scope.companyId, body.contacts);
    const via = await checkingConnection(app, scope.companyId);
    if (!via) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    const book = await phoneContacts(app, via).catch((err: unknown) => {
      logger.warn({ err, whatsappId: via }, 'phone contacts unanswered');
      throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    });
    const rows = book.flatMap((c) =>
      c.identities.phone
        ? [{ name: c.name || c.pushName || c.identities.phone, number: c.identities.phone }]
        : [],
    );
    return importContacts(app, scope.companyId, rows);
  });

  // The sheet is read only after route() authenticated the caller, streamed to a temp file,
  // checked against its declared kind, and removed once read.
  serve(router, app, api.uploadContacts, async ({ scope, req, res }) => {
    const files = await receiveUploads(app, req, res, {
      fields: ['file'],
      maxFiles: 1,
      maxBytes: IMPORT_MAX_BYTES,
      accept: (file) => sheetKindOf(file) !== undefined,
      matches: (file, head) => sheetMatches(sheetKindOf(file)!, head),
    });
    try {
      const [file] = files;
      if (!file) throw new AppError('ERR_IMPORT_FILE');
      const table = await readSheetFile(sheetKindOf(file)!, file.path);
      await discardUploads(files);
      return await importContacts(app, scope.companyId, rowsToContacts(table));
    } finally {
      await discardUploads(files);
    }
  });

  return router;
}
