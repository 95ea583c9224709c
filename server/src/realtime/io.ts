import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { roomOfCompany, roomOfCompanyAdmins, roomOfUser } from '@atende/shared';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { verifyAccessToken } from '../modules/auth/tokens.js';
import { trackTicketSubscriptions } from './subscriptions.js';

/** core §9: ping timeout and interval 18000 ms, websocket only. */
export const SOCKET_OPTIONS = {
  pingTimeout: 18_000,
  pingInterval: 18_000,
  transports: ['websocket' as const],
};

const handshake = z.object({ token: z.string().min(1) });

/** A socket.io server on the Redis adapter; with no http server it only emits (workers). */
export function createIo(pub: Redis, sub: Redis, prefix: string, http?: HttpServer): Server {
  const io = new Server({ ...SOCKET_OPTIONS, serveClient: false, cors: { origin: false } });
  io.adapter(createAdapter(pub, sub, { key: `${prefix}:socket.io` }));
  if (http) io.attach(http);
  return io;
}

/**
 * JWT handshake: the token decides the company and the user; the socket joins its company room,
 * its user room and, for admins, the admins room. Nothing from the client chooses a company.
 */
export function acceptConnections(app: AppContext, io: Server): void {
  io.use((socket, next) => {
    const parsed = handshake.safeParse(socket.handshake.auth ?? {});
    const token = parsed.success ? parsed.data.token : socket.handshake.query.token;
    if (typeof token !== 'string') return next(new Error('ERR_SESSION_EXPIRED'));
    verifyAccessToken(app, token).then(
      (user) => {
        socket.data.user = user;
        next();
      },
      () => next(new Error('ERR_INVALID_TOKEN')),
    );
  });

  io.on('connection', (socket) => {
    const user = socket.data.user as {
      id: number;
      companyId: number;
      profile: string;
      super: boolean;
    };
    void socket.join(roomOfCompany(user.companyId));
    void socket.join(roomOfUser(user.id));
    if (user.profile === 'admin' || user.super)
      void socket.join(roomOfCompanyAdmins(user.companyId));
    trackTicketSubscriptions(app, socket, user);
    socket.on('userStatus', () => {
      app.ds
        .query('UPDATE users SET online = true, "lastSeenAt" = now() WHERE id = $1', [user.id])
        .catch((err: unknown) => logger.warn({ err }, 'userStatus update failed'));
    });
    socket.on('disconnect', () => {
      logger.debug({ userId: user.id }, 'socket disconnected');
    });
  });
}
