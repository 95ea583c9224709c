import type { Socket } from 'socket.io';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { assertCanOpen, loadViewer } from '../modules/tickets/index.js';
import { placeSocket, socketAccess, type SocketData } from './access.js';

type Ack = (answer: { ok: boolean; error?: string }) => void;

const ticketIdArg = z.union([
  z.coerce.number().int().positive(),
  z.object({ ticketId: z.coerce.number().int().positive() }).transform((o) => o.ticketId),
]);
/** joinTickets names a list (open, pending, closed; Whaticket also sends others, kept as given). */
const statusArg = z
  .union([z.string().max(20), z.object({ status: z.string().max(20) }).transform((o) => o.status)])
  .optional()
  .catch(undefined);

const failure = (code: string) => Object.assign(new Error(code), { code });

/**
 * Ticket and message events reach a socket only through the rooms of the tickets its user may
 * see (admins room, one room per queue, the no-queue room), and list deletes through the list
 * rooms of the lists it shows. A socket enters them when it asks for tickets (joinTickets,
 * joinNotification, joinChatBox) and leaves them when it asks for none. Each join re-reads the
 * user (revoked or deleted: disconnected); other changes re-room it through revoke.ts. Every
 * join and leave is acknowledged (`{ok}`) when the client passes a callback.
 */
export function trackTicketSubscriptions(app: AppContext, socket: Socket): void {
  const data = socket.data as SocketData;

  const refresh = async () => {
    const viewer = await socketAccess(app, data.user);
    if (!viewer) {
      socket.disconnect(true);
      throw failure('ERR_SESSION_EXPIRED');
    }
    await placeSocket(socket, viewer);
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
  /** The ack is the last argument, whatever came before it. */
  const ackOf = (args: unknown[]) => [...args].reverse().find((a) => typeof a === 'function');
  const firstArg = (args: unknown[]) => (typeof args[0] === 'function' ? undefined : args[0]);

  const subscribe = async (key: string) => {
    if (!data.subscriptions.includes(key)) data.subscriptions.push(key);
    await refresh();
  };
  const unsubscribe = async (match: (key: string) => boolean) => {
    data.subscriptions = data.subscriptions.filter((key) => !match(key));
    await refresh();
  };

  const joinTickets = (...args: unknown[]) =>
    handle(() => subscribe(`tickets:${statusArg.parse(firstArg(args)) ?? 'all'}`), ackOf(args));
  const leaveTickets = (...args: unknown[]) => {
    const status = statusArg.parse(firstArg(args));
    handle(
      () => unsubscribe((k) => (status ? k === `tickets:${status}` : k.startsWith('tickets:'))),
      ackOf(args),
    );
  };
  const joinNotification = (...args: unknown[]) =>
    handle(() => subscribe('notification'), ackOf(args));
  const leaveNotification = (...args: unknown[]) =>
    handle(() => unsubscribe((k) => k === 'notification'), ackOf(args));
  const joinChatBox = (...args: unknown[]) =>
    handle(async () => {
      const parsed = ticketIdArg.safeParse(firstArg(args));
      if (!parsed.success) throw failure('ERR_VALIDATION');
      const { companyId, id } = data.user;
      const [ticket] = (await app.ds.query(
        'SELECT "queueId" FROM tickets WHERE id = $1 AND "companyId" = $2',
        [parsed.data, companyId],
      )) as { queueId: number | null }[];
      if (!ticket) throw failure('ERR_NO_TICKET_FOUND');
      assertCanOpen(await loadViewer(app.ds, companyId, id), ticket);
      await subscribe(`chat:${parsed.data}`);
    }, ackOf(args));
  const leaveChatBox = (...args: unknown[]) => {
    const parsed = ticketIdArg.safeParse(firstArg(args));
    handle(
      () =>
        unsubscribe((k) => (parsed.success ? k === `chat:${parsed.data}` : k.startsWith('chat:'))),
      ackOf(args),
    );
  };

  socket.on('joinTickets', joinTickets);
  socket.on('joinNotification', joinNotification);
  socket.on('joinChatBox', joinChatBox);
  // Both spellings of leaving: ours (leaveX) and Whaticket's (joinXLeave).
  socket.on('leaveTickets', leaveTickets);
  socket.on('joinTicketsLeave', leaveTickets);
  socket.on('leaveNotification', leaveNotification);
  socket.on('joinNotificationLeave', leaveNotification);
  socket.on('leaveChatBox', leaveChatBox);
  socket.on('joinChatBoxLeave', leaveChatBox);
}
