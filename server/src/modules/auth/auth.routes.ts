import { randomInt, createHash, timingSafeEqual } from 'node:crypto';
import { Router, type Response } from 'express';
import {
  forgotParams,
  isSubscriptionExpired,
  loginBody,
  resetParams,
  strongPassword,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { bearer, route } from '../../http/route.js';
import { clearHits, hit } from '../../lib/rate-limit.js';
import { CompanyEntity } from '../companies/company.entity.js';
import { UserEntity } from '../users/user.entity.js';
import { hashPassword, sessionUser, verifyPassword } from '../users/users.service.js';
import {
  signAccessToken,
  signRefreshToken,
  verifyAccessToken,
  verifyRefreshToken,
  type AuthUser,
} from './tokens.js';

export const REFRESH_COOKIE = 'jrt';
const RESET_TTL_MS = 30 * 60_000;
const RESET_MAX_ATTEMPTS = 5;

const formatDate = (isoDate: string): string => isoDate.split('-').reverse().join('/');
const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Each login, refresh or logout bumps the version: every older token stops working. */
async function rotate(app: AppContext, userId: number): Promise<number> {
  const [rows] = (await app.ds.query(
    'UPDATE users SET "tokenVersion" = "tokenVersion" + 1 WHERE id = $1 RETURNING "tokenVersion"',
    [userId],
  )) as [{ tokenVersion: number }[], number];
  return rows[0]!.tokenVersion;
}

async function issueSession(app: AppContext, res: Response, user: Omit<AuthUser, 'tokenVersion'>) {
  const tokenVersion = await rotate(app, user.id);
  const claims = { id: user.id, companyId: user.companyId, tokenVersion };
  res.cookie(REFRESH_COOKIE, signRefreshToken(app, claims), {
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.NODE_ENV === 'production',
    path: '/',
  });
  return { token: signAccessToken(app, claims), user: await sessionUser(app, user.id) };
}

/** Expired or deactivated companies cannot sign in (core §4, §5); the super user always can. */
async function checkCompany(app: AppContext, user: { companyId: number; super: boolean }) {
  if (user.super) return;
  const company = await app.ds.getRepository(CompanyEntity).findOneByOrFail({ id: user.companyId });
  if (!company.status) throw new AppError('ERR_COMPANY_INACTIVE');
  const zone = await app.settings.get(company.id, 'timezone');
  if (company.dueDate && isSubscriptionExpired(company.dueDate, Date.now(), zone)) {
    throw new AppError('ERR_SUBSCRIPTION_EXPIRED', {
      params: { date: formatDate(company.dueDate) },
      details: { dueDate: company.dueDate },
    });
  }
}

export function authRoutes(app: AppContext): Router {
  const router = Router();
  const { LOGIN_RATE_LIMIT: limit, LOGIN_RATE_WINDOW_MS: windowMs } = app.config;

  router.post(
    '/auth/login',
    route(app, { access: 'public', body: loginBody }, async ({ body, req, res }) => {
      const emailKey = `login:email:${body.email.toLowerCase()}`;
      await hit(app, `login:ip:${req.ip}`, limit * 5, windowMs);
      await hit(app, emailKey, limit, windowMs);
      const user = await app.ds
        .getRepository(UserEntity)
        .createQueryBuilder('u')
        .addSelect('u.passwordHash')
        .where('lower(u.email) = lower(:email)', { email: body.email })
        .getOne();
      if (!user || !(await verifyPassword(user.passwordHash, body.password))) {
        throw new AppError('ERR_INVALID_CREDENTIALS');
      }
      await checkCompany(app, user);
      await clearHits(app, emailKey);
      // Sessions elsewhere learn they were replaced (core §4 auth event).
      app.realtime.toUser(user.companyId, user.id, 'auth', {
        action: 'update',
        user: { id: user.id },
      });
      return issueSession(app, res, user);
    }),
  );

  router.post(
    '/auth/refresh_token',
    route(app, { access: 'public' }, async ({ req, res }) => {
      const token: unknown = req.cookies?.[REFRESH_COOKIE];
      if (typeof token !== 'string') throw new AppError('ERR_SESSION_EXPIRED');
      const user = await verifyRefreshToken(app, token);
      await checkCompany(app, user);
      return issueSession(app, res, user);
    }),
  );

  router.delete(
    '/auth/logout',
    route(app, { access: 'public' }, async ({ req, res }) => {
      const token = bearer(req);
      const refresh: unknown = req.cookies?.[REFRESH_COOKIE];
      const user = token
        ? await verifyAccessToken(app, token).catch(() => null)
        : typeof refresh === 'string'
          ? await verifyRefreshToken(app, refresh).catch(() => null)
          : null;
      if (user) {
        await rotate(app, user.id);
        await app.ds.query('UPDATE users SET online = false WHERE id = $1', [user.id]);
      }
      res.clearCookie(REFRESH_COOKIE, { path: '/' });
      return { message: 'ok' };
    }),
  );

  router.get(
    '/auth/me',
    route(app, {}, async ({ user }) => sessionUser(app, user.id)),
  );

  router.post(
    '/forgetpassword/:email',
    route(app, { access: 'public', params: forgotParams }, async ({ params, req }) => {
      await hit(app, `forgot:ip:${req.ip}`, limit, windowMs);
      await hit(app, `forgot:email:${params.email.toLowerCase()}`, 3, windowMs);
      const rows: { id: number; name: string; email: string }[] = await app.ds.query(
        'SELECT id, name, email FROM users WHERE lower(email) = lower($1)',
        [params.email],
      );
      const user = rows[0];
      if (!user) throw new AppError('ERR_EMAIL_NOT_FOUND');
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
    }),
  );

  router.post(
    '/resetpasswords/:email/:token/:newPassword',
    route(app, { access: 'public', params: resetParams }, async ({ params }) => {
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
      await app.ds.query(
        `UPDATE users SET "passwordHash" = $2, "resetTokenHash" = NULL, "resetTokenExpiresAt" = NULL,
           "resetAttempts" = 0, "tokenVersion" = "tokenVersion" + 1 WHERE id = $1`,
        [user.id, await hashPassword(strong.data)],
      );
      return { message: 'Senha redefinida com sucesso.' };
    }),
  );

  return router;
}
