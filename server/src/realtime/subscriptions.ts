import type { Socket } from 'socket.io';
import { roomOfCompanyAdmins } from '@atende/shared';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { assertCanOpen, isAdmin, loadViewer } from '../modules/tickets/visibility.js';
import { roomOfNoQueue, roomOfQueue } from './emitter.js';

type Ack = (answer: { ok: boolean; error?: string }) => void;

const ticketIdArg = z.union([
  z.coerce.number().int().positive(),
  z.object({ ticketId: z.coerce.number().int().positive() }).transform((o) => o.ticketId),
]);

/**
 * Ticket and message events reach a socket only through the rooms of the tickets its user may
 * see (admins room, one room per queue, the no-queue room). A socket enters them when it asks
 * for tickets (joinTickets, joinNotification, joinChatBox) and leaves them when it asks for none;
 * each join reloads the user's queues, so a change of queues applies on the next join.
 */
export function trackTicketSubscriptions(
  app: AppContext,
  socket: Socket,
  user: { id: number; companyId: number },
): void {
  const subscriptions = new Set<string>();
  let joined: string[] = [];

  const audienceRooms = async (): Promise<string[]> => {
    const viewer = await loadViewer(app.ds, user.companyId, user.id);
    if (isAdmin(viewer)) return [roomOfCompanyAdmins(user.companyId)];
    const rooms = viewer.queueIds.map((q) => roomOfQueue(user.companyId, q));
    if (viewer.allTicket === 'enabled') rooms.push(roomOfNoQueue(user.companyId));
    return rooms;
  };

  const refresh = async () => {
    const wanted = subscriptions.size ? await audienceRooms() : [];
    // The admins room is also the admin's company-wide room: never leave it here.
    for (const room of joined)
      if (!wanted.includes(room) && room !== roomOfCompanyAdmins(user.companyId))
        await socket.leave(room);
    for (const room of wanted) await socket.join(room);
    joined = wanted;
  };

  const handle = (work: () => Promise<void>, ack?: unknown) => {
    work().then(
      () => {
        if (typeof ack === 'function') (ack as Ack)({ ok: true });
      },
      (err: unknown) => {
        const code = (err as { code?: string }).code ?? 'ERR_INTERNAL';
        if (code === 'ERR_INTERNAL') logger.warn({ err }, 'socket join failed');
        if (typeof ack === 'function') (ack as Ack)({ ok: false, error: code });
      },
    );
  };

  const join = (key: string) => async () => {
    subscriptions.add(key);
    await refresh();
  };
  const leave = (prefix: string) => async () => {
    for (const key of [...subscriptions]) if (key.startsWith(prefix)) subscriptions.delete(key);
    await refresh();
  };

  socket.on('joinTickets', (status: unknown, ack?: unknown) =>
    handle(join(`tickets:${String(status ?? 'all')}`), ack),
  );
  socket.on('joinNotification', (_arg?: unknown, ack?: unknown) =>
    handle(join('notification'), typeof _arg === 'function' ? _arg : ack),
  );
  socket.on('joinChatBox', (arg: unknown, ack?: unknown) =>
    handle(async () => {
      const parsed = ticketIdArg.safeParse(arg);
      if (!parsed.success)
        throw Object.assign(new Error('bad ticket id'), { code: 'ERR_VALIDATION' });
      const [ticket] = (await app.ds.query(
        'SELECT "queueId" FROM tickets WHERE id = $1 AND "companyId" = $2',
        [parsed.data, user.companyId],
      )) as { queueId: number | null }[];
      if (!ticket) throw Object.assign(new Error('no ticket'), { code: 'ERR_NO_TICKET_FOUND' });
      assertCanOpen(await loadViewer(app.ds, user.companyId, user.id), ticket);
      await join(`chat:${parsed.data}`)();
    }, ack),
  );
  socket.on('leaveTickets', (_s: unknown, ack?: unknown) => handle(leave('tickets:'), ack));
  socket.on('leaveNotification', (_a: unknown, ack?: unknown) =>
    handle(leave('notification'), ack),
  );
  socket.on('leaveChatBox', (_a: unknown, ack?: unknown) => handle(leave('chat:'), ack));
}
