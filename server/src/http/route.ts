import type { Request, RequestHandler, Response } from 'express';
import { can, type Permission, type Profile } from '@atende/shared';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { AppError, ValidationError } from './errors.js';
import { TenantScope } from './tenant.js';
import { verifyAccessToken, type AuthUser } from '../modules/auth/tokens.js';

/** Who may call a route: anyone, any signed-in user, a permission holder, or the super user. */
export type Access = 'public' | 'user' | 'super' | Permission | 'admin';

interface Spec {
  access?: Access;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  status?: number;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What a handler receives; `user` and `scope` exist on every route that is not public. */
export type Ctx<S extends Spec> = {
  body: Out<S['body']>;
  query: Out<S['query']>;
  params: Out<S['params']>;
  req: Request;
  res: Response;
} & (S['access'] extends 'public' ? object : { user: AuthUser; scope: TenantScope });

function parse(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new ValidationError(
    result.error.issues.map((i) => ({
      path: [where, ...i.path.map(String)].join('.'),
      message: i.message,
    })),
  );
}

export function bearer(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

export function allowed(user: AuthUser, access: Access): boolean {
  if (access === 'public' || access === 'user') return true;
  if (access === 'super') return user.super;
  if (access === 'admin') return user.profile === 'admin' || user.super;
  return can(user.profile as Profile, access);
}

/**
 * Wraps a handler: authenticates (unless public), checks access, validates params, query and
 * body with zod, then sends what the handler returns as JSON.
 */
export function route<const S extends Spec>(
  app: AppContext,
  spec: S,
  handler: (ctx: Ctx<S>) => Promise<unknown>,
): RequestHandler {
  const access = spec.access ?? 'user';
  return async (req, res, next) => {
    try {
      let user: AuthUser | undefined;
      if (access !== 'public') {
        const token = bearer(req);
        if (!token) throw new AppError('ERR_SESSION_EXPIRED');
        user = await verifyAccessToken(app, token);
        if (!allowed(user, access)) throw new AppError('ERR_NO_PERMISSION');
      }
      const params = parse(spec.params, req.params, 'params');
      const query = parse(spec.query, req.query, 'query');
      const body = parse(spec.body, req.body, 'body');
      const ctx = {
        body,
        query,
        params,
        req,
        res,
        user: user as AuthUser,
        scope: user ? new TenantScope(user.companyId, app.ds) : (undefined as never),
      };
      const result = await handler(ctx as unknown as Ctx<S>);
      if (res.headersSent) return;
      if (result === undefined) res.status(spec.status ?? 204).end();
      else res.status(spec.status ?? 200).json(result);
    } catch (err) {
      next(err);
    }
  };
}
