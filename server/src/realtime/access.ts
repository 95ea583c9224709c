// What a socket may still receive: re-read from the database on every join and whenever the
// user, their session or their company changes (see revoke.ts).
import type { AppContext } from '../context.js';
import { isManagedRoom, socketRooms, type SocketViewer } from './rooms.js';

/** What the handshake stored on the socket (`socket.data`), readable from any api process. */
export interface SocketData {
  user: {
    id: number;
    companyId: number;
    profile: string;
    super: boolean;
    tokenVersion: number;
    /** The sign-in (refresh-token family) the socket's token belongs to; logout ends it. */
    sessionId: string;
  };
  /** What the client asked for: `tickets:<status>`, `notification`, `chat:<ticketId>`. */
  subscriptions: string[];
}

/** A local socket or one of another api process (fetchSockets): both can join and leave. */
export interface RoomedSocket {
  readonly rooms: Set<string>;
  readonly data: SocketData;
  join(rooms: string | string[]): unknown;
  leave(room: string): unknown;
  disconnect(close?: boolean): unknown;
}

interface AccessRow {
  profile: string;
  super: boolean;
  allTicket: string;
  tokenVersion: number;
  companyActive: boolean;
  sessionLive: boolean;
  queueIds: number[];
}

/**
 * The viewer a socket's user is now, or null when the socket must go: the user was deleted or
 * moved, the token it connected with was revoked (logout, login elsewhere, new password), or
 * the company was deactivated (the super user keeps access, as at login).
 */
export async function socketAccess(
  app: AppContext,
  user: SocketData['user'],
): Promise<SocketViewer | null> {
  const [row] = (await app.ds.query(
    `SELECT u.profile, u.super, u."allTicket", u."tokenVersion", c.status AS "companyActive",
            EXISTS (SELECT 1 FROM auth_sessions s WHERE s.id = $3 AND s."userId" = u.id
                      AND s."revokedAt" IS NULL) AS "sessionLive",
            COALESCE(array_agg(uq."queueId") FILTER (WHERE uq."queueId" IS NOT NULL), '{}') AS "queueIds"
       FROM users u JOIN companies c ON c.id = u."companyId"
       LEFT JOIN user_queues uq ON uq."userId" = u.id
      WHERE u.id = $1 AND u."companyId" = $2 GROUP BY u.id, c.status`,
    [user.id, user.companyId, user.sessionId],
  )) as AccessRow[];
  if (!row || row.tokenVersion !== user.tokenVersion || !row.sessionLive) return null;
  if (!row.companyActive && !row.super) return null;
  return {
    admin: row.profile === 'admin' || row.super,
    queueIds: row.queueIds,
    allTicket: row.allTicket === 'enabled',
  };
}

/** Puts the socket in exactly the rooms its user and subscriptions call for now. */
export async function placeSocket(socket: RoomedSocket, viewer: SocketViewer): Promise<void> {
  const { companyId } = socket.data.user;
  const wanted = socketRooms(companyId, viewer, socket.data.subscriptions);
  for (const room of [...socket.rooms])
    if (isManagedRoom(companyId, room) && !wanted.includes(room)) await socket.leave(room);
  const missing = wanted.filter((room) => !socket.rooms.has(room));
  if (missing.length) await socket.join(missing);
}

/** Re-checks one socket: disconnected when its access is gone, re-roomed otherwise. */
export async function recheckSocket(app: AppContext, socket: RoomedSocket): Promise<boolean> {
  const viewer = await socketAccess(app, socket.data.user);
  if (!viewer) {
    socket.disconnect(true);
    return false;
  }
  await placeSocket(socket, viewer);
  return true;
}
