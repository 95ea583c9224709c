import { Router } from 'express';
import { tagEndpoints as api } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import type { TenantScope } from '../../http/tenant.js';
import type { AuthUser } from '../auth/index.js';
import type { Change } from '../changes/index.js';
import { withChanges } from '../changes/index.js';
import { loadTicket, ticketChange } from '../tickets/index.js';
import { assertCanOpen, loadViewer } from '../tickets/index.js';
import { TagEntity, type Tag } from './tag.entity.js';

const PAGE = 20;
const tagChange = (tag: Tag | { id: number }, action: 'create' | 'update' | 'delete'): Change => ({
  entity: 'tag',
  entityId: tag.id,
  action,
  payload: action === 'delete' ? { action, tagId: tag.id } : { action, tag },
});
/** Admin §5: the tag's kanban switch is for admin or supervisor (the super user too). */
const mayUseKanban = (user: AuthUser) =>
  user.super || user.profile === 'admin' || user.profile === 'supervisor';
/** Another user may send the switch only at its current value (0 for a new tag): it stays as is. */
const assertKanbanAllowed = (user: AuthUser, kanban: number | undefined, current: number) => {
  if (kanban !== undefined && kanban !== current && !mayUseKanban(user)) {
    throw new AppError('ERR_NO_PERMISSION');
  }
};
const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

/** Tags (CRUD) and the tags of a ticket (`/tags/sync`). */
export function tagsRoutes(app: AppContext): Router {
  const router = Router();

  /** How many tickets carry each tag (the Whaticket tags table shows it). */
  const withTicketsCount = async (tags: Tag[]) => {
    const rows = (await app.ds.query(
      `SELECT "tagId", count(*)::int AS n FROM ticket_tags WHERE "tagId" = ANY($1::int[])
        GROUP BY "tagId"`,
      [tags.map((t) => t.id)],
    )) as { tagId: number; n: number }[];
    const counts = new Map(rows.map((r) => [r.tagId, r.n]));
    return tags.map((tag) => ({ ...tag, ticketsCount: counts.get(tag.id) ?? 0 }));
  };

  serve(router, app, api.listTags, async ({ scope, query }) => {
    const qb = scope.repo(TagEntity).query('g');
    if (query.searchParam) qb.andWhere('g.name ILIKE :s', { s: `%${query.searchParam}%` });
    const [page, count] = await qb
      .orderBy('g.name', 'ASC')
      .skip((query.pageNumber - 1) * PAGE)
      .take(PAGE)
      .getManyAndCount();
    const tags = await withTicketsCount(page);
    return { tags, count, hasMore: count > query.pageNumber * PAGE };
  });

  serve(router, app, api.tagList, ({ scope }) =>
    scope.repo(TagEntity).find({}, { order: { name: 'ASC' } }),
  );

  serve(router, app, api.showTag, ({ scope, params }) =>
    scope.repo(TagEntity, 'ERR_NO_TAG_FOUND').get(params.id),
  );

  /** The tag's row and its change row commit together (`work` writes through `scope`/`tx`). */
  const save = (
    scope: TenantScope,
    work: (scope: TenantScope, tx: EntityManager, changes: Change[]) => Promise<Tag>,
  ) =>
    withChanges(app, scope.companyId, (tx, changes) => work(scope.with(tx), tx, changes)).catch(
      (err: unknown) => {
        if (isUniqueViolation(err)) throw new AppError('ERR_TAG_NAME_EXISTS');
        throw err;
      },
    );

  serve(router, app, api.createTag, ({ user, scope, body }) => {
    assertKanbanAllowed(user, body.kanban, 0);
    return save(scope, async (_scope, tx, changes) => {
      const [tag] = (await tx.query(
        `INSERT INTO tags ("companyId", name, color, kanban) VALUES ($1, $2, $3, $4) RETURNING *`,
        [scope.companyId, body.name, body.color ?? '#A4CCCC', body.kanban ?? 0],
      )) as Tag[];
      changes.push(tagChange(tag!, 'create'));
      return tag!;
    });
  });

  serve(router, app, api.updateTag, ({ user, scope, params, body }) => {
    return save(scope, async (txScope, _tx, changes) => {
      const tags = txScope.repo(TagEntity, 'ERR_NO_TAG_FOUND');
      assertKanbanAllowed(user, body.kanban, (await tags.get(params.id)).kanban);
      const tag = await tags.update(params.id, body);
      changes.push(tagChange(tag, 'update'));
      return tag;
    });
  });

  serve(router, app, api.deleteTag, async ({ scope, params }) => {
    await withChanges(app, scope.companyId, async (tx, changes) => {
      const [rows] = (await tx.query(
        'DELETE FROM tags WHERE id = $1 AND "companyId" = $2 RETURNING id',
        [params.id, scope.companyId],
      )) as [{ id: number }[], number];
      if (!rows.length) throw new AppError('ERR_NO_TAG_FOUND');
      changes.push(tagChange({ id: params.id }, 'delete'));
    });
    return { message: 'Tag deleted' };
  });

  serve(router, app, api.syncTicketTags, async ({ user, body }) => {
    const viewer = await loadViewer(app.ds, user.companyId, user.id);
    const tagIds = [...new Set(body.tags.map((t) => (typeof t === 'number' ? t : t.id)))];
    return withChanges(app, user.companyId, async (tx, changes) => {
      const ticket = await loadTicket(tx, user.companyId, body.ticketId);
      assertCanOpen(viewer, ticket);
      const owned = (await tx.query(
        'SELECT id FROM tags WHERE "companyId" = $1 AND id = ANY($2::int[])',
        [user.companyId, tagIds],
      )) as unknown[];
      if (owned.length !== tagIds.length) throw new AppError('ERR_NO_TAG_FOUND');
      await tx.query('DELETE FROM ticket_tags WHERE "ticketId" = $1', [ticket.id]);
      await tx.query(`INSERT INTO ticket_tags ("ticketId", "tagId") SELECT $1, unnest($2::int[])`, [
        ticket.id,
        tagIds,
      ]);
      const updated = await loadTicket(tx, user.companyId, ticket.id);
      changes.push(ticketChange(updated));
      return { tags: updated.tags };
    });
  });

  return router;
}
