import { Router } from 'express';
import { userEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { pageOf } from '../../http/paging.js';
import { serve } from '../../http/route.js';
import { refreshUserSockets } from '../../realtime/revoke.js';
import { UserEntity } from './user.entity.js';
import { createUser, deleteUser, publicUser, queuesOfUsers, updateUser } from './users.service.js';

export function usersRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.listUsers, async ({ scope, query }) => {
    const qb = scope.repo(UserEntity).query('u');
    if (query.searchParam) {
      qb.andWhere('(u.name ILIKE :s OR u.email ILIKE :s)', { s: `%${query.searchParam}%` });
    }
    const { rows, count, hasMore } = await pageOf(qb.orderBy('u.name', 'ASC'), query.pageNumber);
    const queues = await queuesOfUsers(
      app.ds,
      rows.map((u) => u.id),
    );
    return { users: rows.map((u) => publicUser(u, queues.get(u.id) ?? [])), count, hasMore };
  });

  serve(router, app, api.userList, async ({ scope }) => {
    const rows = await scope.repo(UserEntity).find({}, { order: { name: 'ASC' } });
    const queues = await queuesOfUsers(
      app.ds,
      rows.map((u) => u.id),
    );
    return rows.map((u) => publicUser(u, queues.get(u.id) ?? []));
  });

  serve(router, app, api.showUser, async ({ scope, params }) => {
    const user = await scope.repo(UserEntity, 'ERR_NO_USER_FOUND').get(params.id);
    return publicUser(user, (await queuesOfUsers(app.ds, [user.id])).get(user.id) ?? []);
  });

  serve(router, app, api.createUser, async ({ scope, body }) => {
    const user = await createUser(app, scope, body);
    app.realtime.toCompany(scope.companyId, 'user', { action: 'create', user });
    return user;
  });

  serve(router, app, api.updateUser, async ({ scope, user, params, body }) => {
    const updated = await updateUser(app, scope, user, params.id, body);
    app.realtime.toCompany(scope.companyId, 'user', { action: 'update', user: updated });
    return updated;
  });

  serve(router, app, api.deleteUser, async ({ scope, user, params }) => {
    await deleteUser(scope, user, params.id);
    await refreshUserSockets(app, params.id);
    app.realtime.toCompany(scope.companyId, 'user', { action: 'delete', userId: params.id });
    return { message: 'User deleted' };
  });

  return router;
}
