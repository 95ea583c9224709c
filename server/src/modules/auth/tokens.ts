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
}

const accessClaims = z.object({ id: z.number(), companyId: z.number(), tv: z.number() });
const refreshClaims = z.object({ id: z.number(), tv: z.number() });

type TokenUser = Pick<AuthUser, 'id' | 'companyId' | 'tokenVersion'>;

export function signAccessToken(app: AppContext, user: TokenUser): string {
  return jwt.sign(
    { id: user.id, companyId: user.companyId, tv: user.tokenVersion },
    app.config.JWT_SECRET,
    { expiresIn: app.config.ACCESS_TOKEN_TTL as SignOptions['expiresIn'] },
  );
}

export function signRefreshToken(app: AppContext, user: TokenUser): string {
  return jwt.sign({ id: user.id, tv: user.tokenVersion }, app.config.JWT_REFRESH_SECRET, {
    expiresIn: app.config.REFRESH_TOKEN_TTL as SignOptions['expiresIn'],
  });
}

function decode<T>(schema: z.ZodType<T>, token: string, secret: string): T | null {
  try {
    const parsed = schema.safeParse(jwt.verify(token, secret));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function loadAuthUser(app: AppContext, id: number): Promise<AuthUser | null> {
  const rows: AuthUser[] = await app.ds.query(
    'SELECT id, "companyId", profile, super, "tokenVersion" FROM users WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/**
 * An access token is good while it verifies and its version matches the user's: logout, a
 * refresh or a login elsewhere bump the version and revoke it. 403 tells the client to refresh.
 */
export async function verifyAccessToken(app: AppContext, token: string): Promise<AuthUser> {
  const claims = decode(accessClaims, token, app.config.JWT_SECRET);
  if (!claims) throw new AppError('ERR_INVALID_TOKEN');
  const user = await loadAuthUser(app, claims.id);
  if (!user || user.tokenVersion !== claims.tv || user.companyId !== claims.companyId) {
    throw new AppError('ERR_INVALID_TOKEN');
  }
  return user;
}

/** A refresh token is good once: the caller rotates the version right after. 401 otherwise. */
export async function verifyRefreshToken(app: AppContext, token: string): Promise<AuthUser> {
  const claims = decode(refreshClaims, token, app.config.JWT_REFRESH_SECRET);
  const user = claims ? await loadAuthUser(app, claims.id) : null;
  if (!claims || !user || user.tokenVersion !== claims.tv)
    throw new AppError('ERR_SESSION_EXPIRED');
  return user;
}
