import { Router } from 'express';
import { noteEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { lockTicketForWrite } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { withChanges } from '../changes/index.js';
import { loadTicket } from '../tickets/index.js';
import { assertCanOpen, isAdmin, loadViewer } from '../tickets/index.js';

const NOTE_SQL = `
  SELECT n.id, n.note, n."ticketId", n."contactId", n."userId", n."createdAt", n."updatedAt",
         CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END AS "user"
    FROM ticket_notes n LEFT JOIN users u ON u.id = n."userId"`;

/** Internal notes of a ticket's contact (core §2 contact drawer). */
export function notesRoutes(app: AppContext): Router {
  const router = Router();
  const viewerOf = (user: { id: number; companyId: number }) =>
    loadViewer(app.ds, user.companyId, user.id);

  serve(router, app, api.listNotes, async ({ user, query }) => {
    const ticket = await loadTicket(app.ds, user.companyId, query.ticketId);
    assertCanOpen(await viewerOf(user), ticket);
    return app.ds.query(
      `${NOTE_SQL} WHERE n."companyId" = $1 AND n."ticketId" = $2 AND n."contactId" = $3 ORDER BY n."createdAt" DESC, n.id DESC`,
      [user.companyId, query.ticketId, query.contactId],
    );
  });

  serve(router, app, api.createNote, async ({ user, body }) => {
    const viewer = await viewerOf(user);
    return withChanges(app, user.companyId, async (tx, changes) => {
      if (!(await lockTicketForWrite(tx, user.companyId, body.ticketId)))
        throw new AppError('ERR_NO_TICKET_FOUND');
      const ticket = await loadTicket(tx, user.companyId, body.ticketId);
      assertCanOpen(viewer, ticket);
      const [contact] = (await tx.query(
        'SELECT id FROM contacts WHERE id = $1 AND "companyId" = $2',
        [body.contactId, user.companyId],
      )) as unknown[];
      if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
      const [{ id }] = (await tx.query(
        `INSERT INTO ticket_notes ("companyId", note, "ticketId", "contactId", "userId")
           VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [user.companyId, body.note, body.ticketId, body.contactId, user.id],
      )) as [{ id: number }];
      const [note] = (await tx.query(`${NOTE_SQL} WHERE n.id = $1`, [id])) as [{ id: number }];
      changes.push({
        entity: 'note',
        entityId: id,
        action: 'create',
        payload: { action: 'create', note },
        ticketQueueId: ticket.queueId,
      });
      return note;
    });
  });

  serve(router, app, api.deleteNote, async ({ user, params }) => {
    const viewer = await viewerOf(user);
    await withChanges(app, user.companyId, async (tx, changes) => {
      const [note] = (await tx.query(
        'SELECT "ticketId", "userId" FROM ticket_notes WHERE id = $1 AND "companyId" = $2',
        [params.id, user.companyId],
      )) as { ticketId: number; userId: number | null }[];
      if (!note) throw new AppError('ERR_NO_NOTE_FOUND');
      await lockTicketForWrite(tx, user.companyId, note.ticketId);
      const ticket = await loadTicket(tx, user.companyId, note.ticketId);
      assertCanOpen(viewer, ticket);
      if (note.userId !== user.id && !isAdmin(viewer)) throw new AppError('ERR_NO_PERMISSION');
      await tx.query('DELETE FROM ticket_notes WHERE id = $1', [params.id]);
      changes.push({
        entity: 'note',
        entityId: params.id,
        action: 'delete',
        payload: { action: 'delete', noteId: params.id },
        ticketQueueId: ticket.queueId,
      });
    });
    return { message: 'Observação excluída com sucesso!' };
  });

  return router;
}
