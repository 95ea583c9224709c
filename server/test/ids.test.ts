import { randomUUID } from 'node:crypto';
import { idSchema, jsonIdList, uuidSchema } from '@atende/shared';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, fingerprint } from './db-snapshot.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';
import { listRoutes, walkSchema, type ListedRoute } from './routes.js';

/**
 * Issue 19 item 3: a path or query id has one canonical form, a positive decimal integer in int4
 * range (or a UUID where the spec says so). Every other form is 400 ERR_VALIDATION before any
 * lookup, on every route of the router, and writes nothing.
 */

let server: TestServer;
let superUser: Session;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  superUser = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server?.close());

/** Path segments as sent on the wire (express decodes them: `%201` is " 1"). */
const BAD_PATH_IDS = [
  '%201',
  '1%20',
  '%2B1',
  '0x1',
  '1e0',
  '-1',
  '0',
  '00',
  '01',
  '1.0',
  '2147483648',
  '99999999999999999999',
  'abc',
  '1abc',
  '%00',
  '1%00',
  encodeURIComponent('１'),
  '1,2',
  '%5B1%5D',
];
/** Query values before encoding. */
const BAD_QUERY_IDS = [
  ' 1',
  '1 ',
  '+1',
  '0x1',
  '1e0',
  '-1',
  '0',
  '01',
  '1.0',
  '2147483648',
  '',
  'x',
  '\u0000',
];
const BAD_ID_LISTS = [
  '[01]',
  '[1.0]',
  '[1e0]',
  '[0x1]',
  '[-1]',
  '[0]',
  '[2147483648]',
  '[" 1"]',
  '1',
];
const BAD_UUIDS = [
  '1',
  'abc',
  '%20' + '9b2f1c1e-8d5b-4a4e-9f3a-2c1d0e9f8a7b',
  '9b2f1c1e8d5b4a4e9f3a2c1d0e9f8a7b',
  '9b2f1c1e-8d5b-4a4e-9f3a-2c1d0e9f8a7g',
];

/** Values the spec gives a meaning in one field: `parentId=-1` is the top of the option tree. */
const SENTINELS: Record<string, string[]> = {
  'GET /queue-options query.parentId': ['-1'],
  // A list filter where Whaticket clients send 0 or '' for "any contact" (idOrNone).
  'GET /schedules query.contactId': ['0', ''],
};

/** Path parameters that are not ids, with the schema that checks them instead. */
const NOT_IDS = new Set(['email', 'token', 'newPassword', 'key', 'file', 'ref']);

const shapeOf = (schema: z.ZodType | undefined) =>
  ((schema as unknown as { _zod?: { def: { shape?: Record<string, z.ZodType> } } } | undefined)
    ?._zod?.def.shape ?? {}) as Record<string, z.ZodType>;

/** The path parameters of a route and what each is: an id, a uuid or something else. */
function pathParams(r: ListedRoute): Map<string, 'id' | 'uuid' | 'other'> {
  const shape = shapeOf(r.spec?.params);
  const out = new Map<string, 'id' | 'uuid' | 'other'>();
  for (const [, name] of r.path.matchAll(/:(\w+)/g)) {
    const schema = shape[name!];
    // A ref() is the one id schema piped into a reference mark: its input is idSchema.
    const input = (schema as unknown as { _zod?: { def: { in?: unknown } } } | undefined)?._zod?.def
      .in;
    const isId = schema === idSchema || input === idSchema;
    out.set(name!, isId ? 'id' : schema === uuidSchema ? 'uuid' : 'other');
  }
  return out;
}

/** Top-level query fields that hold an id (idSchema or a ref() to it) or a JSON list of ids. */
function queryIds(r: ListedRoute): { field: string; list: boolean }[] {
  const out: { field: string; list: boolean }[] = [];
  const schema = r.spec?.query;
  if (!schema) return out;
  const seen = new Set<string>();
  walkSchema(schema, (node, path) => {
    if (!path || path.includes('.') || path.includes('[') || seen.has(path)) return;
    if (node === idSchema || node === jsonIdList) {
      seen.add(path);
      out.push({ field: path, list: node === jsonIdList });
    }
  });
  return out;
}

/** A valid stand-in for every parameter but `name`, which gets `value`. */
function pathWith(r: ListedRoute, name: string, value: string): string {
  return r.path.replace(/:(\w+)/g, (_m, p: string) =>
    p === name ? value : pathParams(r).get(p) === 'uuid' ? randomUUID() : '1',
  );
}

async function expectInvalid(method: string, url: string, where: string) {
  const res = await server.request(method, url, { token: superUser.token });
  const details = (res.body as { details?: { path: string }[] } | undefined)?.details ?? [];
  return {
    url,
    ok:
      res.status === 400 &&
      (res.body as { error?: string }).error === 'ERR_VALIDATION' &&
      details.some((d) => d.path === where),
    got: `${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
  };
}

/** Runs the requests a few at a time and returns those that did not answer as expected. */
async function failing(checks: (() => ReturnType<typeof expectInvalid>)[]): Promise<string[]> {
  const bad: string[] = [];
  for (let i = 0; i < checks.length; i += 8) {
    const answers = await Promise.all(checks.slice(i, i + 8).map((c) => c()));
    for (const a of answers) if (!a.ok) bad.push(`${a.url} → ${a.got}`);
  }
  return bad;
}

describe('canonical ids on every route (issue 19 item 3)', () => {
  it('every path parameter named like an id is checked by the one id schema', () => {
    const routes = listRoutes(server.app);
    const loose: string[] = [];
    for (const r of routes)
      for (const [name, kind] of pathParams(r)) {
        if (kind === 'other' && !NOT_IDS.has(name)) loose.push(`${r.method} ${r.path} :${name}`);
        if (kind !== 'id' && /^id$|Id$/.test(name)) loose.push(`${r.method} ${r.path} :${name}`);
      }
    expect(loose).toEqual([]);
  });

  it('a path id in any other form is 400 ERR_VALIDATION before any lookup, and writes nothing', async () => {
    const before = await fingerprint(server.app.ds);
    const checks: (() => ReturnType<typeof expectInvalid>)[] = [];
    for (const r of listRoutes(server.app))
      for (const [name, kind] of pathParams(r)) {
        if (kind === 'other') continue;
        for (const bad of kind === 'id' ? BAD_PATH_IDS : BAD_UUIDS)
          checks.push(() => expectInvalid(r.method, pathWith(r, name, bad), `params.${name}`));
      }
    expect(checks.length).toBeGreaterThan(50 * BAD_PATH_IDS.length);
    expect(await failing(checks)).toEqual([]);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  }, 120_000);

  it('a query id (or JSON list of ids) in any other form is 400 ERR_VALIDATION', async () => {
    const before = await fingerprint(server.app.ds);
    const checks: (() => ReturnType<typeof expectInvalid>)[] = [];
    for (const r of listRoutes(server.app)) {
      if (r.path.includes(':')) continue;
      for (const { field, list } of queryIds(r))
        for (const bad of list ? BAD_ID_LISTS : BAD_QUERY_IDS) {
          if (SENTINELS[`${r.method} ${r.path} query.${field}`]?.includes(bad)) continue;
          checks.push(() =>
            expectInvalid(
              r.method,
              `${r.path}?${new URLSearchParams({ [field]: bad })}`,
              `query.${field}`,
            ),
          );
        }
    }
    // GET /ticket-notes/list, /queue-options, /simulator/outbound, /tickets' three lists...
    expect(checks.length).toBeGreaterThan(5 * BAD_QUERY_IDS.length);
    expect(await failing(checks)).toEqual([]);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  }, 120_000);

  it('the canonical form of the same id is accepted (the 400s above come from the form)', async () => {
    const tags = await server.request('POST', '/tags', {
      token: superUser.token,
      body: { name: 'Canônica' },
    });
    expect(tags.status).toBe(201);
    const id = tags.body.id as number;
    const good = await server.request('GET', `/tags/${id}`, { token: superUser.token });
    expect(good.status).toBe(200);
    for (const bad of [`%20${id}`, `0${id}`, `0x${id.toString(16)}`, `${id}e0`, `${id}.0`]) {
      const res = await server.request('GET', `/tags/${bad}`, { token: superUser.token });
      expect(res.status, bad).toBe(400);
    }
    const gone = await server.request('DELETE', `/tags/%20${id}`, { token: superUser.token });
    expect(gone.status).toBe(400);
    expect((await server.request('GET', `/tags/${id}`, { token: superUser.token })).status).toBe(
      200,
    );
  });
});
