import jwt from 'jsonwebtoken';
import type { SignOptions } from 'jsonwebtoken';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';

export interface AuthUser {
  id: number;
  companyId: number;
  profile: string;
  super: boolean;
  tokenVersion: number;
  /** The session family (one sign-in) this token belongs to: `auth_sessions.id`. */
  sessionId: string;
}

const accessClaims = z.object({
  id: z.number(),
  companyId: z.number(),
  tv: z.number(),
  sid: z.string().uuid(),
});
const refreshClaims = z.object({
  id: z.number(),
  tv: z.number(),
  sid: z.string().uuid(),
  gen: z.number().int().positive(),
});
export type RefreshClaims = z.infer<typeof refreshClaims>;

export interface SessionRef {
  id: number;
  companyId: number;
  tokenVersion: number;
  sessionId: string;
}

export function signAccessToken(app: AppContext, session: SessionRef): string {
  return jwt.sign(
    {
      id: session.id,
      companyId: session.companyId,
      tv: session.tokenVersion,
      sid: session.sessionId,
    },
    app.config.JWT_SECRET,
    { expiresIn: app.config.ACCESS_TOKEN_TTL as SignOptions['expiresIn'] },
  );
}

/** A refresh token of one generation of a family; answers the token and when it expires. */
export function signRefreshToken(
  app: AppContext,
  session: Omit<SessionRef, 'companyId'>,
  generation: number,
): { token: string; expiresAt: Date } {
  const token = jwt.sign(
    { id: session.id, tv: session.tokenVersion, sid: session.sessionId, gen: generation },
    app.config.JWT_REFRESH_SECRET,
    { expiresIn: app.config.REFRESH_TOKEN_TTL as SignOptions['expiresIn'] },
  );
  const { exp } = jwt.decode(token) as { exp: number };
  return { token, expiresAt: new Date(exp * 1000) };
}

function decode<T>(schema: z.ZodType<T>, token: string, secret: string): T | null {
  try {
    const parsed = schema.safeParse(jwt.verify(token, secret));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const decodeRefreshToken = (app: AppContext, token: string): RefreshClaims | null =>
  decode(refreshClaims, token, app.config.JWT_REFRESH_SECRET);

interface AccessRow {
  id: number;
  companyId: number;
  profile: string;
  super: boolean;
  tokenVersion: number;
  companyActive: boolean;
  sessionLive: boolean;
}

/**
 * An access token is good while it verifies, its version matches the user's (a sign-in elsewhere
 * or a password change moves it), its session family is live (logout and refresh-token reuse end
 * one family) and its company is active (a deactivated company's tokens stop at once). One query
 * of three primary-key lookups per request. 403 tells the client to refresh.
 */
export async function verifyAccessToken(app: AppContext, token: string): Promise<AuthUser> {
  const claims = decode(accessClaims, token, app.config.JWT_SECRET);
  if (!claims) throw new AppError('ERR_INVALID_TOKEN');
  const rows: AccessRow[] = await app.ds.query(
    `SELECT u.id, u."companyId", u.profile, u.super, u."tokenVersion", c.status AS "companyActive",
       (s.id IS NOT NULL AND s."revokedAt" IS NULL AND s."tokenVersion" = u."tokenVersion")
         AS "sessionLive"
     FROM users u
     JOIN companies c ON c.id = u."companyId"
     LEFT JOIN auth_sessions s ON s.id = $2 AND s."userId" = u.id
     WHERE u.id = $1`,
    [claims.id, claims.sid],
  );
  const row = rows[0];
  if (
    !row ||
    row.tokenVersion !== claims.tv ||
    row.companyId !== claims.companyId ||
    !row.sessionLive
  ) {
    throw new AppError('ERR_INVALID_TOKEN');
  }
  if (!row.companyActive && !row.super) throw new AppError('ERR_COMPANY_INACTIVE');
  return {
    id: row.id,
    companyId: row.companyId,
    profile: row.profile,
    super: row.super,
    tokenVersion: row.tokenVersion,
    sessionId: claims.sid,
  };
}
