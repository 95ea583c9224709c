// Kanban (issue 17 item 3): the lanes are the company's kanban tags plus 'Em aberto' (no kanban
// tag). A ticket sits in one lane: moving it replaces its kanban tags and keeps every other tag.
// The move names the lane the client saw (`fromTagId`): a ticket moved meanwhile answers 409
// ERR_KANBAN_MOVE_CONFLICT and nothing changes (the ticket row lock serialises movers).
import { Router } from 'express';
import { kanbanEndpoints as api } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { lockTicketForWrite } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { withChanges } from '../changes/index.js';
import type { Tag } from './tag.entity.js';
import {
  assertCanOpen,
  loadTicket,
  loadViewer,
  ticketChange,
  visibleTicketsSql,
} from '../tickets/index.js';

interface KanbanRow {
  id: number;
  uuid: string;
  status: string;
  queueId: number | null;
  lastMessage: string;
  updatedAt: Date;
  contact: { id: number; name: string; number: string };
  tags: { id: number; name: string; color: string }[];
}

/** The kanban tags of the company among `ids` (a tag of another kind is not a lane). */
async function kanbanTagIds(tx: EntityManager, companyId: number, ids: number[]) {
  const rows = (await tx.query(
    'SELECT id FROM tags WHERE "companyId" = $1 AND kanban = 1 AND id = ANY($2::int[])',
    [companyId, ids],
  )) as { id: number }[];
  return new Set(rows.map((r) => r.id));
}

export function kanbanRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.kanbanTags, async ({ scope }) => {
    const lista = (await app.ds.query(
      `SELECT * FROM tags WHERE "companyId" = $1 AND kanban = 1 ORDER BY name, id`,
      [scope.companyId],
    )) as Tag[];
    return {
      lista: lista.map((t) => ({
        ...t,
        createdAt: new Date(t.createdAt).toISOString(),
        updatedAt: new Date(t.updatedAt).toISOString(),
      })),
    };
  });

  serve(router, app, api.kanbanTickets, async ({ user, query }) => {
    const viewer = await loadViewer(app.ds, user.companyId, user.id);
    const params: unknown[] = [user.companyId];
    const where = ['t."companyId" = $1', `t.status <> 'closed'`, visibleTicketsSql(viewer, params)];
    // `queueIds` narrows the queued tickets; tickets without a queue stay for whoever may see
    // them (visibility above), or a new conversation would never reach 'Em aberto'.
    if (query.queueIds?.length) {
      params.push(query.queueIds);
      where.push(`(t."queueId" = ANY($${params.length}::int[]) OR t."queueId" IS NULL)`);
    }
    const rows = (await app.ds.query(
      `SELECT t.id, t.uuid, t.status, t."queueId", t."lastMessage", t."updatedAt",
              json_build_object('id', c.id, 'name', c.name, 'number', c.number) AS contact,
              COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color)
                                        ORDER BY g.name, g.id)
                          FROM ticket_tags tt JOIN tags g ON g.id = tt."tagId"
                         WHERE tt."ticketId" = t.id), '[]') AS tags
         FROM tickets t JOIN contacts c ON c.id = t."contactId"
        WHERE ${where.join(' AND ')}
        ORDER BY t."updatedAt" DESC, t.id DESC`,
      params,
    )) as KanbanRow[];
    return {
      tickets: rows.map((r) => ({ ...r, updatedAt: new Date(r.updatedAt).toISOString() })),
    };
  });

  /**
   * Locks the ticket, checks the caller may open it, runs `change` on its tags and publishes the
   * ticket (other boards move the card live). Answers the ticket's tags.
   */
  const onTicketTags = (
    user: { companyId: number; id: number },
    ticketId: number,
    change: (tx: EntityManager, kanbanNow: number[]) => Promise<void>,
  ) =>
    withChanges(app, user.companyId, async (tx, changes) => {
      const viewer = await loadViewer(tx, user.companyId, user.id);
      if (!(await lockTicketForWrite(tx, user.companyId, ticketId))) {
        throw new AppError('ERR_NO_TICKET_FOUND');
      }
      assertCanOpen(viewer, await loadTicket(tx, user.companyId, ticketId));
      const current = (await tx.query(
        `SELECT tt."tagId" AS id FROM ticket_tags tt JOIN tags g ON g.id = tt."tagId"
          WHERE tt."ticketId" = $1 AND g.kanban = 1`,
        [ticketId],
      )) as { id: number }[];
      await change(
        tx,
        current.map((r) => r.id),
      );
      const updated = await loadTicket(tx, user.companyId, ticketId);
      changes.push(ticketChange(updated));
      return { ticketId, tags: updated.tags };
    });

  const dropKanbanTags = (tx: EntityManager, ticketId: number, ids: number[]) =>
    ids.length
      ? tx.query('DELETE FROM ticket_tags WHERE "ticketId" = $1 AND "tagId" = ANY($2::int[])', [
          ticketId,
          ids,
        ])
      : Promise.resolve();

  serve(router, app, api.removeKanbanTags, ({ user, params }) =>
    onTicketTags(user, params.ticketId, (tx, kanbanNow) =>
      dropKanbanTags(tx, params.ticketId, kanbanNow).then(() => undefined),
    ),
  );

  serve(router, app, api.moveKanban, ({ user, params, body }) =>
    onTicketTags(user, params.ticketId, async (tx, kanbanNow) => {
      const named = [body.fromTagId, body.toTagId].filter((v): v is number => v != null);
      const lanes = await kanbanTagIds(tx, user.companyId, named);
      if (named.some((id) => !lanes.has(id))) throw new AppError('ERR_TAG_NOT_KANBAN');
      const stillThere =
        body.fromTagId == null ? kanbanNow.length === 0 : kanbanNow.includes(body.fromTagId);
      if (!stillThere) throw new AppError('ERR_KANBAN_MOVE_CONFLICT');
      if (body.fromTagId === body.toTagId) return;
      await dropKanbanTags(tx, params.ticketId, kanbanNow);
      if (body.toTagId != null) {
        await tx.query(
          `INSERT INTO ticket_tags ("ticketId", "tagId") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          [params.ticketId, body.toTagId],
        );
      }
    }),
  );

  serve(router, app, api.addTicketTag, ({ user, params }) =>
    onTicketTags(user, params.ticketId, async (tx, kanbanNow) => {
      const isLane = (await kanbanTagIds(tx, user.companyId, [params.tagId])).has(params.tagId);
      // A ticket sits in one lane: a kanban tag replaces the other kanban tags.
      if (isLane) {
        await dropKanbanTags(
          tx,
          params.ticketId,
          kanbanNow.filter((id) => id !== params.tagId),
        );
      }
      await tx.query(
        `INSERT INTO ticket_tags ("ticketId", "tagId") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [params.ticketId, params.tagId],
      );
    }),
  );

  return router;
}
