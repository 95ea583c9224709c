// Sockets follow their user's fate at once, on every api process (the Redis adapter carries
// fetchSockets and disconnectSockets across them): a revoked session, a deleted user or a
// deactivated company ends them; a new profile or new queues re-room them.
import { roomOfCompany, roomOfUser } from '@atende/shared';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { recheckSocket, type RoomedSocket } from './access.js';

async function recheckRoom(app: AppContext, room: string): Promise<void> {
  const sockets = (await app.realtime.io.in(room).fetchSockets()) as unknown as RoomedSocket[];
  await Promise.all(sockets.map((socket) => recheckSocket(app, socket)));
}

/**
 * Ends every socket of the user now, wherever it is connected (a login elsewhere ends the other
 * sessions; the auth event sent before it still reaches them first).
 */
export async function endUserSockets(app: AppContext, userId: number): Promise<void> {
  app.realtime.io.in(roomOfUser(userId)).disconnectSockets(true);
}

/**
 * Re-checks the user's sockets against the database: those whose token was revoked (logout,
 * new password), of a deleted user or of a deactivated company are disconnected; the others
 * are re-roomed for the user's profile, queues and allTicket as they are now.
 */
export async function refreshUserSockets(app: AppContext, userId: number): Promise<void> {
  await recheckRoom(app, roomOfUser(userId)).catch((err: unknown) =>
    logger.error({ err, userId }, 'user sockets not re-checked'),
  );
}

/** The same for every socket of a company (its status changed, or it was deleted). */
export async function refreshCompanySockets(app: AppContext, companyId: number): Promise<void> {
  await recheckRoom(app, roomOfCompany(companyId)).catch((err: unknown) =>
    logger.error({ err, companyId }, 'company sockets not re-checked'),
  );
}
