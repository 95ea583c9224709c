import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { logger } from '../../logger.js';
import {
  decodeRefreshToken,
  signAccessToken,
  signRefreshToken,
  type SessionRef,
} from './tokens.js';

/**
 * Session families (docs/decisions.md, "Auth"): a sign-in starts a family (a row of
 * `auth_sessions`); its refresh tokens carry the family id and a generation. A refresh rotates
 * the generation at most once per grace window and never touches access tokens, so tabs and the
 * desktop app that refresh together all keep working. A refresh token older than the previous
 * generation, or the previous one after the window, is reuse: that family ends.
 */

/** Why sessions ended; published on `sessionsEndedChannel` for whoever holds live connections. */
export const sessionsEnded = z.object({
  userId: z.number(),
  /** One family ended (logout, reuse), or null: every session below `tokenVersion` ended. */
  sessionId: z.string().nullable(),
  /** With sessionId null: the user's new tokenVersion; tokens carrying a lower one are dead. */
  tokenVersion: z.number().nullable(),
  reason: z.enum(['login', 'logout', 'reuse', 'password']),
});
export type SessionsEnded = z.infer<typeof sessionsEnded>;

export const sessionsEndedChannel = (prefix: string): string => `${prefix}:auth:sessions-ended`;

/** Tells every process (sockets, caches) that sessions of a user ended. */
export async function publishSessionsEnded(app: AppContext, event: SessionsEnded): Promise<void> {
  await app.redis
    .publish(sessionsEndedChannel(app.prefix), JSON.stringify(event))
    .catch((err: unknown) => logger.warn({ err }, 'sessions-ended publish failed'));
}

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  session: SessionRef;
}

export interface ClientMeta {
  ip?: string;
  userAgent?: string;
}

/**
 * A sign-in: moves the user's tokenVersion (every other session of the user ends) and starts a
 * new family at generation 1, in one transaction.
 */
export async function startSession(
  app: AppContext,
  user: { id: number; companyId: number },
  meta: ClientMeta,
): Promise<IssuedSession> {
  const sessionId = randomUUID();
  const issued = await app.ds.transaction(async (manager) => {
    const [rows] = (await manager.query(
      'UPDATE users SET "tokenVersion" = "tokenVersion" + 1 WHERE id = $1 RETURNING "tokenVersion"',
      [user.id],
    )) as [{ tokenVersion: number }[], number];
    const session: SessionRef = {
      id: user.id,
      companyId: user.companyId,
      tokenVersion: rows[0]!.tokenVersion,
      sessionId,
    };
    const refresh = signRefreshToken(app, session, 1);
    await manager.query(
      `UPDATE auth_sessions SET "revokedAt" = now(), "revokedReason" = 'login'
       WHERE "userId" = $1 AND "revokedAt" IS NULL`,
      [user.id],
    );
    // Ended families are kept a day (for a look at why), then go; a token of a missing family
    // is refused just the same.
    await manager.query(
      `DELETE FROM auth_sessions WHERE "userId" = $1
         AND ("revokedAt" < now() - interval '1 day' OR "expiresAt" < now())`,
      [user.id],
    );
    await manager.query(
      `INSERT INTO auth_sessions (id, "userId", "tokenVersion", generation, "expiresAt", ip, "userAgent")
       VALUES ($1, $2, $3, 1, $4, $5, $6)`,
      [
        sessionId,
        user.id,
        session.tokenVersion,
        refresh.expiresAt,
        meta.ip ?? null,
        meta.userAgent?.slice(0, 300) ?? null,
      ],
    );
    return { accessToken: signAccessToken(app, session), refreshToken: refresh.token, session };
  });
  await publishSessionsEnded(app, {
    userId: user.id,
    sessionId: null,
    tokenVersion: issued.session.tokenVersion,
    reason: 'login',
  });
  return issued;
}

interface FamilyRow {
  userId: number;
  companyId: number;
  tokenVersion: number;
  userTokenVersion: number;
  generation: number;
  ageMs: number;
  expired: boolean;
  revokedAt: Date | null;
}

type RefreshOutcome =
  | { kind: 'issued'; generation: number; row: FamilyRow }
  | { kind: 'ended' }
  | { kind: 'reuse'; userId: number };

/**
 * Trades a refresh token for a new access token (and the family's current refresh token).
 * The family row is locked, so concurrent refreshes of one family are decided one at a time.
 */
export async function refreshSession(app: AppContext, token: string): Promise<IssuedSession> {
  const claims = decodeRefreshToken(app, token);
  if (!claims) throw new AppError('ERR_SESSION_EXPIRED');
  const graceMs = app.config.REFRESH_GRACE_MS;
  const outcome = await app.ds.transaction(async (manager): Promise<RefreshOutcome> => {
    const rows: FamilyRow[] = await manager.query(
      `SELECT s."userId", u."companyId", s."tokenVersion", u."tokenVersion" AS "userTokenVersion",
         s.generation, s."revokedAt", s."expiresAt" <= now() AS expired,
         (extract(epoch FROM now() - s."rotatedAt") * 1000)::float8 AS "ageMs"
       FROM auth_sessions s JOIN users u ON u.id = s."userId"
       WHERE s.id = $1 FOR UPDATE OF s`,
      [claims.sid],
    );
    const row = rows[0];
    if (
      !row ||
      row.userId !== claims.id ||
      row.revokedAt !== null ||
      row.expired ||
      row.tokenVersion !== row.userTokenVersion ||
      row.tokenVersion !== claims.tv
    ) {
      return { kind: 'ended' };
    }
    const inGrace = row.ageMs < graceMs;
    if (claims.gen === row.generation) {
      if (inGrace) return { kind: 'issued', generation: row.generation, row };
      await manager.query(
        `UPDATE auth_sessions SET generation = generation + 1, "rotatedAt" = now() WHERE id = $1`,
        [claims.sid],
      );
      return { kind: 'issued', generation: row.generation + 1, row };
    }
    // The generation just replaced, presented within the window: a concurrent refresh (tabs).
    if (claims.gen === row.generation - 1 && inGrace) {
      return { kind: 'issued', generation: row.generation, row };
    }
    await manager.query(
      `UPDATE auth_sessions SET "revokedAt" = now(), "revokedReason" = 'reuse' WHERE id = $1`,
      [claims.sid],
    );
    return { kind: 'reuse', userId: row.userId };
  });
  if (outcome.kind === 'reuse') {
    logger.warn(
      { userId: outcome.userId, sessionId: claims.sid, generation: claims.gen },
      'refresh token reuse: session family ended',
    );
    await publishSessionsEnded(app, {
      userId: outcome.userId,
      sessionId: claims.sid,
      tokenVersion: null,
      reason: 'reuse',
    });
  }
  if (outcome.kind !== 'issued') throw new AppError('ERR_SESSION_EXPIRED');
  const session: SessionRef = {
    id: claims.id,
    companyId: outcome.row.companyId,
    tokenVersion: outcome.row.tokenVersion,
    sessionId: claims.sid,
  };
  const refresh = signRefreshToken(app, session, outcome.generation);
  await app.ds.query(
    `UPDATE auth_sessions SET "expiresAt" = greatest("expiresAt", $2) WHERE id = $1`,
    [claims.sid, refresh.expiresAt],
  );
  return { accessToken: signAccessToken(app, session), refreshToken: refresh.token, session };
}

/** Logout: ends one family (the other places the user is signed in are not touched). */
export async function endSession(
  app: AppContext,
  userId: number,
  sessionId: string,
): Promise<void> {
  await app.ds.query(
    `UPDATE auth_sessions SET "revokedAt" = now(), "revokedReason" = 'logout'
     WHERE id = $1 AND "userId" = $2 AND "revokedAt" IS NULL`,
    [sessionId, userId],
  );
  await publishSessionsEnded(app, { userId, sessionId, tokenVersion: null, reason: 'logout' });
}

/** The sid of a refresh token that verifies (for logout without an access token). */
export function sessionOfRefreshToken(
  app: AppContext,
  token: string,
): { userId: number; sessionId: string } | null {
  const claims = decodeRefreshToken(app, token);
  return claims ? { userId: claims.id, sessionId: claims.sid } : null;
}
