import { Router } from 'express';
import { quickMessageEndpoints as api } from '@atende/shared';
import type { SelectQueryBuilder } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import type { TenantScope } from '../../http/tenant.js';
import type { AuthUser } from '../auth/index.js';
import { mediaUrl } from '../../whatsapp/media.js';
import { receiveFile, removeAttachment, storeAttachment } from '../queues/index.js';
import { QuickMessageEntity, type QuickMessage } from './quick-message.entity.js';

export const QUICK_MESSAGES_PAGE_SIZE = 20;

const isAdmin = (user: AuthUser) => user.profile === 'admin' || user.super;
/** Secondary §6: admin and supervisor manage every quick message of the company. */
const isManager = (user: AuthUser) => isAdmin(user) || user.profile === 'supervisor';

const publicQuickMessage = (q: QuickMessage) => ({
  ...q,
  isMedia: q.mediaPath !== null,
  mediaUrl: q.mediaPath ? mediaUrl(q.mediaPath) : null,
});

/** What a user sees: their own and the company-wide ones; managers see them all. */
function visible(scope: TenantScope, user: AuthUser): SelectQueryBuilder<QuickMessage> {
  const qb = scope.repo(QuickMessageEntity).query('q');
  if (!isManager(user)) qb.andWhere('(q."userId" = :uid OR q.geral)', { uid: user.id });
  return qb;
}

async function visibleOne(scope: TenantScope, user: AuthUser, id: number) {
  const row = await visible(scope, user).andWhere('q.id = :id', { id }).getOne();
  if (!row) throw new AppError('ERR_NO_QUICK_MESSAGE_FOUND');
  return row;
}

/** A user edits only their own non-general messages; managers edit any. */
async function editable(scope: TenantScope, user: AuthUser, id: number) {
  const row = await visibleOne(scope, user, id);
  if (!isManager(user) && (row.geral || row.userId !== user.id)) {
    throw new AppError('ERR_NO_PERMISSION');
  }
  return row;
}

export function quickMessagesRoutes(app: AppContext): Router {
  const router = Router();
  // A private quick message is news only to its owner; a general one to the whole company.
  const emit = (
    companyId: number,
    action: 'create' | 'update' | 'delete',
    row: QuickMessage | { id: number },
  ) => {
    const payload = { action, record: row, id: row.id };
    if ('geral' in row && !row.geral && row.userId) {
      app.realtime.toUser(companyId, row.userId, 'quickmessage', payload);
      app.realtime.toCompanyAdmins(companyId, 'quickmessage', payload);
    } else app.realtime.toCompany(companyId, 'quickmessage', payload);
  };

  serve(router, app, api.listQuickMessages, async ({ scope, user, query }) => {
    const qb = visible(scope, user);
    if (query.searchParam) {
      qb.andWhere('(q.shortcode ILIKE :s OR q.message ILIKE :s)', {
        s: `%${query.searchParam}%`,
      });
    }
    const [rows, count] = await qb
      .orderBy('lower(q.shortcode)', 'ASC')
      .addOrderBy('q.id', 'ASC')
      .skip((query.pageNumber - 1) * QUICK_MESSAGES_PAGE_SIZE)
      .take(QUICK_MESSAGES_PAGE_SIZE)
      .getManyAndCount();
    return {
      records: rows.map(publicQuickMessage),
      count,
      hasMore: count > query.pageNumber * QUICK_MESSAGES_PAGE_SIZE,
    };
  });

  serve(router, app, api.quickMessageList, async ({ scope, user }) => {
    const rows = await visible(scope, user)
      .orderBy('lower(q.shortcode)', 'ASC')
      .addOrderBy('q.id', 'ASC')
      .getMany();
    return rows.map(publicQuickMessage);
  });

  serve(router, app, api.showQuickMessage, async ({ scope, user, params }) =>
    publicQuickMessage(await visibleOne(scope, user, params.id)),
  );

  serve(router, app, api.createQuickMessage, async ({ scope, user, body }) => {
    if (body.geral && !isAdmin(user)) throw new AppError('ERR_NO_PERMISSION');
    const row = await scope.repo(QuickMessageEntity).create({
      userId: user.id,
      shortcode: body.shortcode,
      message: body.message,
      geral: body.geral,
      mediaPath: null,
      mediaName: null,
    });
    emit(scope.companyId, 'create', row);
    return publicQuickMessage(row);
  });

  serve(router, app, api.updateQuickMessage, async ({ scope, user, params, body }) => {
    const row = await editable(scope, user, params.id);
    if (body.geral !== undefined && body.geral !== row.geral && !isAdmin(user)) {
      throw new AppError('ERR_NO_PERMISSION');
    }
    const updated = await scope.repo(QuickMessageEntity).update(params.id, {
      ...(body.shortcode !== undefined && { shortcode: body.shortcode }),
      ...(body.message !== undefined && { message: body.message }),
      ...(body.geral !== undefined && { geral: body.geral }),
    });
    emit(scope.companyId, 'update', updated);
    return publicQuickMessage(updated);
  });

  serve(router, app, api.deleteQuickMessage, async ({ scope, user, params }) => {
    const row = await editable(scope, user, params.id);
    await scope.repo(QuickMessageEntity).delete(params.id);
    await removeAttachment(app, scope.companyId, row.mediaPath);
    emit(scope.companyId, 'delete', row);
    return { message: 'Quick message deleted' };
  });

  serve(router, app, api.attachQuickMessageMedia, async ({ scope, user, params, req, res }) => {
    const before = await editable(scope, user, params.id);
    const file = await receiveFile(app, req, res);
    const attachment = await storeAttachment(app, scope.companyId, file);
    const row = await scope.repo(QuickMessageEntity).update(params.id, attachment);
    await removeAttachment(app, scope.companyId, before.mediaPath);
    emit(scope.companyId, 'update', row);
    return { mensagem: 'Arquivo Anexado', record: publicQuickMessage(row) };
  });

  serve(router, app, api.removeQuickMessageMedia, async ({ scope, user, params }) => {
    const before = await editable(scope, user, params.id);
    const row = await scope
      .repo(QuickMessageEntity)
      .update(params.id, { mediaPath: null, mediaName: null });
    await removeAttachment(app, scope.companyId, before.mediaPath);
    emit(scope.companyId, 'update', row);
    return { mensagem: 'Arquivo excluído', record: publicQuickMessage(row) };
  });

  return router;
}
