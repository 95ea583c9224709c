import { Router } from 'express';
import { ticketEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { listTickets } from './tickets.list.js';
import { loadTicket } from './tickets.queries.js';
import { createTicket, deleteTicket, updateTicket } from './tickets.service.js';
import { assertCanOpen, loadViewer } from './visibility.js';

export function ticketsRoutes(app: AppContext): Router {
  const router = Router();
  const viewerOf = (user: { id: number; companyId: number }) =>
    loadViewer(app.ds, user.companyId, user.id);

  serve(router, app, api.listTickets, async ({ user, query }) =>
    listTickets(app.ds, await viewerOf(user), query),
  );

  serve(router, app, api.showTicketByUuid, async ({ user, scope, params }) => {
    const [row] = (await app.ds.query(
      'SELECT id FROM tickets WHERE uuid = $1 AND "companyId" = $2',
      [params.uuid, scope.companyId],
    )) as { id: number }[];
    if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
    const ticket = await loadTicket(app.ds, scope.companyId, row.id);
    assertCanOpen(await viewerOf(user), ticket);
    return ticket;
  });

  serve(router, app, api.showTicket, async ({ user, scope, params }) => {
    const ticket = await loadTicket(app.ds, scope.companyId, params.id);
    assertCanOpen(await viewerOf(user), ticket);
    return ticket;
  });

  serve(router, app, api.createTicket, async ({ user, body }) =>
    createTicket(app, await viewerOf(user), body),
  );

  serve(router, app, api.updateTicket, async ({ user, params, body }) =>
    updateTicket(app, await viewerOf(user), params.id, body),
  );

  serve(router, app, api.deleteTicket, async ({ user, params }) => {
    await deleteTicket(app, await viewerOf(user), params.id);
    return { message: 'ticket deleted' };
  });

  return router;
}
