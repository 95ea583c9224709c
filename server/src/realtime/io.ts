import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  ERRORS,
  handshakeAuth,
  PROTOCOL_VERSION,
  roomOfCompany,
  roomOfUser,
  type ProtocolRefusal,
} from '@atende/shared';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { verifyAccessToken } from '../modules/auth/index.js';
import { placeSocket, socketAccess, type SocketData } from './access.js';
import type { SocketViewer } from './rooms.js';
import { trackTicketSubscriptions } from './subscriptions.js';

/** core §9: ping timeout and interval 18000 ms, websocket only. */
export const SOCKET_OPTIONS = {
  pingTimeout: 18_000,
  pingInterval: 18_000,
  transports: ['websocket' as const],
};

/**
 * A client stating another protocol version is refused: it would misread the events. A client
 * that states none (Whaticket's) is accepted. `err.data` tells which version the server speaks.
 */
export function protocolRefusal(auth: unknown): (Error & { data: ProtocolRefusal }) | null {
  const raw = (auth as { protocol?: unknown } | null)?.protocol;
  if (raw === undefined || raw === null) return null;
  const received = typeof raw === 'number' && Number.isInteger(raw) ? raw : -1;
  if (received === PROTOCOL_VERSION) return null;
  const error = new Error('ERR_PROTOCOL_VERSION') as Error & { data: ProtocolRefusal };
  error.data = {
    error: 'ERR_PROTOCOL_VERSION',
    expected: PROTOCOL_VERSION,
    received,
    message: ERRORS.ERR_PROTOCOL_VERSION.text['pt-BR'],
  };
  return error;
}

/** A socket.io server on the Redis adapter; with no http server it only emits (workers). */
export function createIo(pub: Redis, sub: Redis, prefix: string, http?: HttpServer): Server {
  const io = new Server({ ...SOCKET_OPTIONS, serveClient: false, cors: { origin: false } });
  io.adapter(createAdapter(pub, sub, { key: `${prefix}:socket.io` }));
  if (http) io.attach(http);
  return io;
}

/** What the handshake found the user to be, for the first placement of the socket. */
const handshakeViewers = new WeakMap<Socket, SocketViewer>();

/**
 * JWT handshake: the token decides the company and the user; the socket joins its company room,
 * its user room and, for admins, the admins room. Nothing from the client chooses a company. A
 * socket of a deactivated company (or a revoked token) is refused as at login. Once its handlers
 * are in place the socket gets `ready` (Whaticket's clients join their rooms on it).
 */
export function acceptConnections(app: AppContext, io: Server): void {
  io.use((socket, next) => {
    const refused = protocolRefusal(socket.handshake.auth);
    if (refused) return next(refused);
    const parsed = handshakeAuth.safeParse(socket.handshake.auth ?? {});
    const token = parsed.success ? parsed.data.token : socket.handshake.query.token;
    if (typeof token !== 'string') return next(new Error('ERR_SESSION_EXPIRED'));
    verifyAccessToken(app, token)
      .then(async (user) => {
        const data: SocketData = {
          user: {
            id: user.id,
            companyId: user.companyId,
            profile: user.profile,
            super: user.super,
            tokenVersion: user.tokenVersion,
            sessionId: user.sessionId,
          },
          subscriptions: [],
        };
        const viewer = await socketAccess(app, data.user);
        if (!viewer) throw new Error('revoked');
        socket.data = data;
        return viewer;
      })
      .then(
        (viewer) => {
          handshakeViewers.set(socket, viewer);
          next();
        },
        () => next(new Error('ERR_INVALID_TOKEN')),
      );
  });

  io.on('connection', (socket) => {
    const { user } = socket.data as SocketData;
    void socket.join([roomOfCompany(user.companyId), roomOfUser(user.id)]);
    trackTicketSubscriptions(app, socket);
    // Admins are in the admins room before `ready` (the join is synchronous on this process).
    const viewer = handshakeViewers.get(socket);
    if (viewer)
      placeSocket(socket, viewer).catch((err: unknown) =>
        logger.warn({ err, userId: user.id }, 'socket not placed in its rooms'),
      );
    socket.on('userStatus', () => {
      app.ds
        .query('UPDATE users SET online = true, "lastSeenAt" = now() WHERE id = $1', [user.id])
        .catch((err: unknown) => logger.warn({ err }, 'userStatus update failed'));
    });
    socket.on('disconnect', () => {
      logger.debug({ userId: user.id }, 'socket disconnected');
    });
    socket.emit('ready');
  });
}
