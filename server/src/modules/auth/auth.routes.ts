import { randomBytes, randomInt, createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  authEndpoints as api,
  isSubscriptionExpired,
  strongPassword,
  TIME_ZONE_SETTING,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { bearer, serve } from '../../http/route.js';
import { logger } from '../../logger.js';
import { endUserSockets, refreshUserSockets } from '../../realtime/revoke.js';
import { CompanyEntity } from '../companies/index.js';
import { UserEntity } from '../users/index.js';
import { hashPassword, sessionUser, verifyPassword } from '../users/index.js';
import {
  afterLoginFailure,
  afterLoginSuccess,
  beforeForgot,
  beforeLogin,
  beforeReset,
  unknownEmailAsked,
} from './limits.js';
import {
  endSession,
  publishSessionsEnded,
  refreshSession,
  sessionOfRefreshToken,
  startSession,
  type IssuedSession,
} from './sessions.js';
import { verifyAccessToken } from './tokens.js';

export const REFRESH_COOKIE = 'jrt';
const RESET_TTL_MS = 30 * 60_000;
const RESET_MAX_ATTEMPTS = 5;

const formatDate = (isoDate: string): string => isoDate.split('-').reverse().join('/');
const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
const clientIp = (req: Request): string => req.ip ?? 'unknown';
/** `a•••@example.com`: enough to read a log, not a list of addresses. */
const maskEmail = (email: string): string => email.replace(/^(.).*@/, '$1•••@');

/**
 * Unknown e-mails are checked against this hash, so a sign-in takes as long whether the e-mail
 * exists or not. Made once per process, on first use.
 */
let dummyHash: Promise<string> | undefined;
const dummyPasswordHash = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

/** Auth answers carry tokens: no cache may keep them (issue 11 item 8). */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  next();
};

function answerSession(app: AppContext, res: Response, issued: IssuedSession) {
  res.cookie(REFRESH_COOKIE, issued.refreshToken, {
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.NODE_ENV === 'production',
    path: '/',
  });
  return sessionUser(app, issued.session.id).then((user) => ({
    token: issued.accessToken,
    user,
  }));
}

/** Expired or deactivated companies cannot sign in (core §4, §5); the super user always can. */
async function checkCompany(app: AppContext, user: { companyId: number; super: boolean }) {
  if (user.super) return;
  const company = await app.ds.getRepository(CompanyEntity).findOneByOrFail({ id: user.companyId });
  if (!company.status) throw new AppError('ERR_COMPANY_INACTIVE');
  const zone = await app.settings.get(company.id, TIME_ZONE_SETTING);
  if (company.dueDate && isSubscriptionExpired(company.dueDate, Date.now(), zone)) {
    throw new AppError('ERR_SUBSCRIPTION_EXPIRED', {
      params: { date: formatDate(company.dueDate) },
      details: { dueDate: company.dueDate },
    });
  }
}

export function authRoutes(app: AppContext): Router {
  const router = Router();
  router.use(['/auth', '/forgetpassword', '/resetpasswords'], noStore);
  // Ready before the first sign-in with an unknown e-mail, so that one is not slower either.
  void dummyPasswordHash();

  serve(router, app, api.login, async ({ body, req, res }) => {
    const attempt = { ip: clientIp(req), email: body.email };
    const failures = await beforeLogin(app, res, attempt);
    const user = await app.ds
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('lower(u.email) = lower(:email)', { email: body.email })
      .getOne();
    const hash = user?.passwordHash ?? (await dummyPasswordHash());
    const passwordOk = await verifyPassword(hash, body.password);
    if (!user || !passwordOk) {
      await afterLoginFailure(app, attempt, failures);
      throw new AppError('ERR_INVALID_CREDENTIALS');
    }
    await afterLoginSuccess(app, attempt);
    // A refused sign-in (expired, deactivated) ends nothing: this check comes first.
    await checkCompany(app, user);
    const issued = await startSession(app, user, {
      ip: attempt.ip,
      userAgent: req.get('user-agent'),
    });
    // Sessions elsewhere learn they were replaced (core §4 auth event).
    app.realtime.toUser(user.companyId, user.id, 'auth', {
      action: 'update',
      user: { id: user.id },
    });
    await endUserSockets(app, user.id);
    return answerSession(app, res, issued);
  });

  serve(router, app, api.refreshToken, async ({ req, res }) => {
    const token: unknown = req.cookies?.[REFRESH_COOKIE];
    if (typeof token !== 'string') throw new AppError('ERR_SESSION_EXPIRED');
    const issued = await refreshSession(app, token);
    const rows: { super: boolean }[] = await app.ds.query('SELECT super FROM users WHERE id = $1', [
      issued.session.id,
    ]);
    await checkCompany(app, { companyId: issued.session.companyId, super: !!rows[0]?.super });
    return answerSession(app, res, issued);
  });

  serve(router, app, api.logout, async ({ req, res }) => {
    const token = bearer(req);
    const refresh: unknown = req.cookies?.[REFRESH_COOKIE];
    const fromAccess = token
      ? await verifyAccessToken(app, token).then(
          (u) => ({ userId: u.id, sessionId: u.sessionId }),
          () => null,
        )
      : null;
    const session =
      fromAccess ?? (typeof refresh === 'string' ? sessionOfRefreshToken(app, refresh) : null);
    if (session) {
      await endSession(app, session.userId, session.sessionId);
      await refreshUserSockets(app, session.userId);
      await app.ds.query('UPDATE users SET online = false WHERE id = $1', [session.userId]);
    }
    res.clearCookie(REFRESH_COOKIE, { path: '/' });
    return { message: 'ok' };
  });

  serve(router, app, api.me, async ({ user }) => sessionUser(app, user.id));

  serve(router, app, api.forgotPassword, async ({ params, req, res }) => {
    const ip = clientIp(req);
    await beforeForgot(app, res, ip, params.email);
    const rows: { id: number; name: string; email: string }[] = await app.ds.query(
      'SELECT id, name, email FROM users WHERE lower(email) = lower($1)',
      [params.email],
    );
    const user = rows[0];
    if (!user) {
      // The spec answers 'Email não encontrado'; each such answer is logged, as is a run.
      const asked = await unknownEmailAsked(app, ip);
      logger.warn(
        { ip, email: maskEmail(params.email), unknownInWindow: asked, suspected: asked >= 3 },
        asked >= 3
          ? 'password reset: e-mail enumeration suspected'
          : 'password reset for an unknown e-mail',
      );
      throw new AppError('ERR_EMAIL_NOT_FOUND');
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await app.mailer.send({
      to: user.email,
      subject: 'Atende — código para redefinir a senha',
      text: `Olá, ${user.name}.\n\nSeu código de verificação é ${code}. Ele vale por 30 minutos.\n\nSe você não pediu para redefinir a senha, ignore este e-mail.`,
    });
    await app.ds.query(
      `UPDATE users SET "resetTokenHash" = $2, "resetTokenExpiresAt" = $3, "resetAttempts" = 0
         WHERE id = $1`,
      [user.id, sha256(code), new Date(Date.now() + RESET_TTL_MS)],
    );
    return { status: 200, message: 'E-mail enviado.' };
  });

  serve(router, app, api.resetPassword, async ({ params, req, res }) => {
    await beforeReset(app, res, clientIp(req));
    const strong = strongPassword.safeParse(params.newPassword);
    if (!strong.success) throw new AppError('ERR_WEAK_PASSWORD');
    // An UPDATE ... RETURNING answers [rows, count] through TypeORM's query().
    const [rows] = (await app.ds.query(
      `UPDATE users SET "resetAttempts" = "resetAttempts" + 1 WHERE lower(email) = lower($1)
         RETURNING id, "resetTokenHash", "resetTokenExpiresAt", "resetAttempts"`,
      [params.email],
    )) as [
      {
        id: number;
        resetTokenHash: string | null;
        resetTokenExpiresAt: Date | null;
        resetAttempts: number;
      }[],
      number,
    ];
    const user = rows[0];
    if (!user) throw new AppError('ERR_EMAIL_NOT_FOUND');
    const given = Buffer.from(sha256(params.token));
    const valid =
      user.resetTokenHash !== null &&
      user.resetTokenExpiresAt !== null &&
      user.resetTokenExpiresAt.getTime() > Date.now() &&
      user.resetAttempts <= RESET_MAX_ATTEMPTS &&
      timingSafeEqual(given, Buffer.from(user.resetTokenHash));
    if (!valid) throw new AppError('ERR_INVALID_RESET_TOKEN');
    const [changed] = (await app.ds.query(
      `UPDATE users SET "passwordHash" = $2, "resetTokenHash" = NULL, "resetTokenExpiresAt" = NULL,
           "resetAttempts" = 0, "tokenVersion" = "tokenVersion" + 1 WHERE id = $1
         RETURNING "tokenVersion"`,
      [user.id, await hashPassword(strong.data)],
    )) as [{ tokenVersion: number }[], number];
    await publishSessionsEnded(app, {
      userId: user.id,
      sessionId: null,
      tokenVersion: changed[0]!.tokenVersion,
      reason: 'password',
    });
    return { message: 'Senha redefinida com sucesso.' };
  });

  return router;
}
