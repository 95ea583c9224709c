import type { Response } from 'express';
import type { ErrorCode } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';

/**
 * Counters in Redis (shared by every API process) for sign-in, sign-up and password reset.
 * Sign-in locks the attacker, not the account: failures are counted per address and per
 * (address, account), with a growing wait per (address, account); a success counts nothing.
 */

/** Failures of one (address, account) before each next try has to wait (1 s, 2 s, 4 s ...). */
export const LOGIN_BACKOFF_AFTER = 3;

const key = (app: AppContext, name: string) => `${app.prefix}:rl:${name}`;

function refuse(res: Response, code: ErrorCode, retryMs: number): never {
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryMs / 1000))));
  throw new AppError(code);
}

/** Adds one to a fixed-window counter and answers the new count and the window's rest (ms). */
async function count(app: AppContext, name: string, windowMs: number): Promise<[number, number]> {
  const k = key(app, name);
  const [[, n], , [, ttl]] = (await app.redis
    .multi()
    .incr(k)
    .pexpire(k, windowMs, 'NX')
    .pttl(k)
    .exec()) as [[null, number], [null, number], [null, number]];
  return [n, ttl];
}

export interface LoginAttempt {
  ip: string;
  email: string;
}

const loginKeys = ({ ip, email }: LoginAttempt) => {
  const account = email.toLowerCase();
  return {
    ip: `login:ip:${ip}`,
    pair: `login:pair:${ip}:${account}`,
    wait: `login:wait:${ip}:${account}`,
  };
};

/**
 * Before checking a password: refuses while this address must wait for this account, or when
 * the address or the (address, account) pair used up its failures in the window. The attempt is
 * counted as a failure up front (so parallel guesses count too) and refunded on success.
 */
export async function beforeLogin(app: AppContext, res: Response, attempt: LoginAttempt) {
  const { LOGIN_RATE_LIMIT: limit, LOGIN_RATE_WINDOW_MS: windowMs } = app.config;
  const keys = loginKeys(attempt);
  const wait = await app.redis.pttl(key(app, keys.wait));
  if (wait > 0) refuse(res, 'ERR_TOO_MANY_REQUESTS', wait);
  const [ipCount, ipRest] = await count(app, keys.ip, windowMs);
  const [pairCount, pairRest] = await count(app, keys.pair, windowMs);
  if (ipCount > limit * 5) refuse(res, 'ERR_TOO_MANY_REQUESTS', ipRest);
  if (pairCount > limit) refuse(res, 'ERR_TOO_MANY_REQUESTS', pairRest);
  return pairCount;
}

/** A wrong password: from the LOGIN_BACKOFF_AFTER-th failure on, the next try waits 1 s, 2 s... */
export async function afterLoginFailure(app: AppContext, attempt: LoginAttempt, failures: number) {
  if (failures < LOGIN_BACKOFF_AFTER) return;
  const waitMs = Math.min(
    1000 * 2 ** (failures - LOGIN_BACKOFF_AFTER),
    app.config.LOGIN_RATE_WINDOW_MS,
  );
  await app.redis.set(key(app, loginKeys(attempt).wait), '1', 'PX', waitMs);
}

/** A right password: the attempt counts nothing, and this pair starts afresh. */
export async function afterLoginSuccess(app: AppContext, attempt: LoginAttempt) {
  const keys = loginKeys(attempt);
  const ipKey = key(app, keys.ip);
  await app.redis
    .multi()
    .decr(ipKey)
    // Had the window ended meanwhile, the refund must not leave a key that never expires.
    .pexpire(ipKey, app.config.LOGIN_RATE_WINDOW_MS, 'NX')
    .del(key(app, keys.pair), key(app, keys.wait))
    .exec();
}

/** Public sign-up: per address and for the whole platform, counted before any work is done. */
export async function beforeSignUp(app: AppContext, res: Response, ip: string) {
  const { SIGNUP_RATE_LIMIT, SIGNUP_GLOBAL_LIMIT, SIGNUP_RATE_WINDOW_MS: windowMs } = app.config;
  const [ipCount, ipRest] = await count(app, `signup:ip:${ip}`, windowMs);
  if (ipCount > SIGNUP_RATE_LIMIT) refuse(res, 'ERR_SIGNUP_RATE_LIMIT', ipRest);
  const [allCount, allRest] = await count(app, 'signup:all', windowMs);
  if (allCount > SIGNUP_GLOBAL_LIMIT) refuse(res, 'ERR_SIGNUP_BUSY', allRest);
}

/** Forgot-password: a few calls per address and per e-mail in the window. */
export async function beforeForgot(app: AppContext, res: Response, ip: string, email: string) {
  const { FORGOT_RATE_LIMIT: limit, FORGOT_RATE_WINDOW_MS: windowMs } = app.config;
  const [ipCount, ipRest] = await count(app, `forgot:ip:${ip}`, windowMs);
  if (ipCount > limit) refuse(res, 'ERR_TOO_MANY_REQUESTS', ipRest);
  const [mailCount, mailRest] = await count(app, `forgot:email:${email.toLowerCase()}`, windowMs);
  if (mailCount > 3) refuse(res, 'ERR_TOO_MANY_REQUESTS', mailRest);
}

/** Counts one unknown e-mail asked for by an address; answers how many in the window. */
export async function unknownEmailAsked(app: AppContext, ip: string): Promise<number> {
  const [n] = await count(app, `forgot:unknown:${ip}`, app.config.FORGOT_RATE_WINDOW_MS);
  return n;
}

/** Password reset attempts per address (each code also allows only 5 tries). */
export async function beforeReset(app: AppContext, res: Response, ip: string) {
  const { FORGOT_RATE_LIMIT: limit, FORGOT_RATE_WINDOW_MS: windowMs } = app.config;
  const [n, rest] = await count(app, `reset:ip:${ip}`, windowMs);
  if (n > limit * 4) refuse(res, 'ERR_TOO_MANY_REQUESTS', rest);
}
