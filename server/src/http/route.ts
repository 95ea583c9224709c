import type { Request, RequestHandler, Response, Router } from 'express';
import {
  can,
  collectReferences,
  type Access,
  type Endpoint,
  type PlanFlag,
  type Profile,
  type Reference,
} from '@atende/shared';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import { AppError, ValidationError } from './errors.js';
import { TenantScope } from './tenant.js';
import { verifyAccessToken, type AuthUser } from '../modules/auth/index.js';

export type { Access };

/** What route() checks; every Endpoint of the shared route table is one. */
export interface Spec {
  access?: Access;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  status?: number;
  plan?: PlanFlag;
  response?: Endpoint['response'];
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

function parse(
  schema: z.ZodType | undefined,
  value: unknown,
  where: string,
  references: Reference[],
): unknown {
  if (!schema) return undefined;
  // The parse is synchronous: the ids marked ref() that it meets are this request's.
  const { result, references: met } = collectReferences(() => schema.safeParse(value ?? {}));
  references.push(...met);
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

/** A handler made by route(), carrying its spec so tests can list every route's schemas. */
export type RouteHandler = RequestHandler & { spec: Spec };

/**
 * Wraps a handler: authenticates (unless public), checks access, validates params, query and
 * body with zod, checks that every id they name (ref() in the schema) is a row of the caller's
 * company (else the same 404 as a missing row), then sends what the handler returns as JSON.
 */
export function route<const S extends Spec>(
  app: AppContext,
  spec: S,
  handler: (ctx: Ctx<S>) => Promise<unknown>,
): RouteHandler {
  const access = spec.access ?? 'user';
  const handle: RequestHandler = async (req, res, next) => {
    try {
      let user: AuthUser | undefined;
      if (access !== 'public') {
        const token = bearer(req);
        if (!token) throw new AppError('ERR_SESSION_EXPIRED');
        user = await verifyAccessToken(app, token);
        if (!allowed(user, access)) throw new AppError('ERR_NO_PERMISSION');
        if (spec.plan && !(await planAllows(app, user.companyId, spec.plan))) {
          throw new AppError('ERR_PLAN_FEATURE_DISABLED');
        }
      }
      const references: Reference[] = [];
      const params = parse(spec.params, req.params, 'params', references);
      const query = parse(spec.query, req.query, 'query', references);
      const body = parse(spec.body, req.body, 'body', references);
      const scope = user ? new TenantScope(user.companyId, app.ds) : undefined;
      if (references.length) {
        // A public route has no company: nothing it names can be the caller's.
        if (!scope) throw new AppError('ERR_NOT_FOUND');
        await scope.assertOwns(references);
      }
      const ctx = {
        body,
        query,
        params,
        req,
        res,
        user: user as AuthUser,
        scope: scope as TenantScope,
      };
      const result = await handler(ctx as unknown as Ctx<S>);
      if (res.headersSent) return;
      if (result === undefined) res.status(spec.status ?? 204).end();
      else {
        if (app.config.NODE_ENV === 'test') checkAnswer(spec, req, result);
        res.status(spec.status ?? 200).json(result);
      }
    } catch (err) {
      next(err);
    }
  };
  return Object.assign(handle, { spec });
}

/** Whether the company's plan has the flag (a company without a plan has none). */
async function planAllows(app: AppContext, companyId: number, flag: PlanFlag): Promise<boolean> {
  const rows = (await app.ds.query(
    `SELECT p.* FROM companies c JOIN plans p ON p.id = c."planId" WHERE c.id = $1`,
    [companyId],
  )) as Record<string, unknown>[];
  return rows[0]?.[flag] === true;
}

/**
 * Under test every JSON answer is checked against the endpoint's declared response schema (as
 * the client receives it, after JSON serialisation), so the route table cannot drift from what
 * the server sends. Never on in production.
 */
function checkAnswer(spec: Spec, req: Request, result: unknown): void {
  if (!spec.response || typeof spec.response === 'string') return;
  const wire: unknown = JSON.parse(JSON.stringify(result));
  const parsed = spec.response.safeParse(wire);
  if (parsed.success) return;
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.')}: ${i.message}`)
    .join('; ');
  throw new Error(
    `answer of ${req.method} ${req.route?.path as string} breaks its schema: ${issues}`,
  );
}

type Handler<E extends Endpoint> = (ctx: Ctx<E>) => Promise<unknown>;

/**
 * Registers one endpoint of the shared route table on a router: its method and path, and
 * route() with the endpoint as the spec (access, plan flag, validation, answer check).
 */
export function serve<const E extends Endpoint>(
  router: Router,
  app: AppContext,
  endpoint: E,
  handler: Handler<E>,
): void {
  router[endpoint.method](endpoint.path, route(app, endpoint, handler));
}
