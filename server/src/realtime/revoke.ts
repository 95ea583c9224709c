// Sockets follow their user's fate at once, on every api process (the Redis adapter carries
// fetchSockets and disconnectSockets across them): a revoked session, a deleted user or a
// deactivated company ends them; a new profile or new queues re-room them.
import { roomOfCompany, roomOfUser } from '@atende/shared';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { sessionsEnded, sessionsEndedChannel } from '../modules/auth/index.js';
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

/**
 * Every api process re-checks its own sockets of a user whose sessions ended anywhere (a refresh
 * token replayed after the grace window ends its family without any route here calling us).
 */
export async function followEndedSessions(app: AppContext, subscriber: Redis): Promise<void> {
  const channel = sessionsEndedChannel(app.prefix);
  await subscriber.subscribe(channel);
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const event = sessionsEnded.safeParse(parseJson(message));
    if (!event.success) {
      logger.warn({ issues: event.error.issues }, 'malformed sessions-ended message ignored');
      return;
    }
    const room = roomOfUser(event.data.userId);
    void app.realtime.io.local
      .in(room)
      .fetchSockets()
      .then((sockets) =>
        Promise.all(
          (sockets as unknown as RoomedSocket[]).map((socket) => recheckSocket(app, socket)),
        ),
      )
      .catch((err: unknown) =>
        logger.error({ err, userId: event.data.userId }, 'ended-session sockets not re-checked'),
      );
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
