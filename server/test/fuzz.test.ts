import fc from 'fast-check';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, fingerprint } from './db-snapshot.js';
import { startSession } from '../src/modules/auth/sessions.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';
import { listRoutes, type ListedRoute } from './routes.js';
import { rowsOf, type Rows } from './tenant-rows.js';
import { addAgent, tenant, type Tenant } from './ticketing/fixtures.js';

/**
 * Issue 11 (items 3 and "the suite"): a property-based fuzz of every route of the HTTP app, read
 * from express's router stack, as an admin, an agent and anonymous. Wrong types, NUL and control
 * characters, huge strings, deep nesting, malformed JSON, junk multipart, bad ids. No answer is
 * ever a 5xx, and an answer in 4xx wrote nothing (every table's fingerprint is unchanged).
 */

type Role = 'super' | 'admin' | 'agent' | 'anonymous';
interface FuzzRequest {
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What an anonymous caller presents instead of a session: forged tokens and cookies. */
  credentials?: Record<string, string>;
}

let server: TestServer;
let company: Tenant;
let rows: Rows;
const sessions: Partial<Record<Role, Session>> = {};
let requests = 0;
let lastPrint: Record<string, string> | undefined;
const failures: string[] = [];

/** Runs per route and role; the fixed malformed bodies below come on top. */
const RUNS: Record<Role, number> = { super: 4, admin: 5, agent: 3, anonymous: 2 };
/** The super user fuzzes the platform's routes, on a spare company and plan only. */
const forSuper = (route: ListedRoute) => /^\/(companies|plans)\b/.test(route.path);
let spare: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on', LOGIN_RATE_LIMIT: '100000' });
  company = await tenant(server);
  const agent = await addAgent(server, company.admin);
  sessions.admin = company.admin;
  sessions.agent = agent;
  rows = await rowsOf(server, company, agent.id);
  const other = await createCompanyWithAdmin(server);
  sessions.super = await server.login(ADMIN.email, ADMIN.password);
  const plan = await server.request('POST', '/plans', {
    token: sessions.super.token,
    body: { name: 'Plano de sobra', users: 1, connections: 1, queues: 1, value: 1 },
  });
  spare = [String(other.companyId), String(plan.body.id)];
}, 60_000);
afterAll(() => server?.close());

/**
 * A fuzzed request may log its caller out, demote or delete them, or change their password:
 * after such an answer the session is checked and, if needed, restored through the database.
 */
async function restore(role: Role): Promise<void> {
  if (role === 'anonymous') return;
  const current = sessions[role]!;
  const me = await server.request('GET', '/auth/me', { token: current.token });
  const profile = role === 'agent' ? 'user' : 'admin';
  if (me.status === 200 && me.body.profile === profile) return;
  const id = role === 'admin' ? company.admin.id : (current.user as { id: number }).id;
  // A fresh token for the same user (no password round: argon2 is slow on purpose).
  const [updated] = (await server.app.ds.query(
    `UPDATE users SET profile = $2 WHERE id = $1 RETURNING id, "companyId"`,
    [id, profile],
  )) as [{ id: number; companyId: number }[], number];
  const user = updated[0];
  // A new sign-in: the request before may have ended the session (logout, a new password).
  if (user)
    sessions[role] = { ...current, token: (await startSession(server.app, user, {})).accessToken };
  else sessions.agent = await addAgent(server, sessions.admin!);
}

// ---- values -------------------------------------------------------------------------------

const BAD_IDS = [
  ' 1',
  '%201',
  '0x1',
  '1e0',
  '-1',
  '0',
  '2147483648',
  '01',
  '1.0',
  'abc',
  '',
  '%00',
];
const CONTROL = [
  '\u0000',
  '\u0000',
  '\u0000',
  '\u0001',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\ud800',
];

const nested = (depth: number): unknown => {
  let v: unknown = 'fundo';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

const ownIds = () => Object.values(rows);
const withControl = (s: string) =>
  fc.constantFrom(...CONTROL).map((c) => `${s.slice(0, 3)}${c}${s.slice(3)}`);

/** Plausible values by field name, so fuzzed bodies also reach the code behind validation. */
function plausible(key: string, schema?: z.ZodType): fc.Arbitrary<unknown> {
  const accepted = schema ? acceptedSamples(schema) : [];
  if (accepted.length) return fc.constantFrom(...accepted);
  return byName(key);
}

/** Sample values that the field's own schema accepts, so a request gets past validation. */
function acceptedSamples(schema: z.ZodType): unknown[] {
  const pool: unknown[] = [...SAMPLES, ...ownIds(), [ownIds()[0]], [], { id: ownIds()[0] }];
  let node = schema as unknown as { _zod: { def: Record<string, unknown> } } | undefined;
  for (let i = 0; node && i < 8; i++) {
    const def = node._zod.def;
    if (def.type === 'enum') pool.push(...Object.values(def.entries as object));
    if (def.type === 'literal') pool.push(...(def.values as unknown[]));
    node = (def.innerType ?? def.in) as typeof node;
  }
  return pool.filter((v) => schema.safeParse(v).success).slice(0, 12);
}

const SAMPLES: unknown[] = [
  'Nome Válido',
  'texto da mensagem\ncom linha',
  `fuzz@fuzz.test`,
  'Senha123',
  '#abcdef',
  '5511999998888',
  '2024-01-01',
  '08:00',
  '1',
  'enabled',
  'disabled',
  'abcdefghijklmnopq',
  1,
  0,
  true,
  false,
  null,
];

/**
 * Right shape, impossible value: a schema that checks only the shape lets Postgres refuse it.
 * Dates go to fields that take a date and not any text, numbers to fields that take a number.
 */
function impossibleFor(schema: z.ZodType): unknown[] {
  const takes = (v: unknown) => schema.safeParse(v).success;
  if (takes('abc')) return [];
  if (takes('2024-01-01')) return ['2024-02-30', '0000-01-01', '2024-01-01T99:99'];
  if (takes(1)) return [2 ** 31, 1e15, 1.5];
  return [];
}

/**
 * For each field whose schema accepts an impossible value, one request with that value and every
 * other field at a value its schema accepts: on a correct schema this sends nothing.
 */
function impossibleProbes(route: ListedRoute, role: Role): FuzzRequest[] {
  const path = route.path.replace(/:(\w+)/g, () =>
    role === 'super' ? spare[0]! : String(ownIds()[0]),
  );
  const probes: FuzzRequest[] = [];
  for (const where of ['query', 'body'] as const) {
    const fields = keysOf(route.spec?.[where]);
    const base = Object.fromEntries(
      fields.map(([k, schema]) => [k, schema ? acceptedSamples(schema)[0] : undefined]),
    );
    for (const [key, schema] of fields) {
      const values = schema ? impossibleFor(schema).filter((v) => schema.safeParse(v).success) : [];
      for (const value of values) {
        const fieldsNow = { ...base, [key]: value };
        probes.push({
          path,
          query:
            where === 'query'
              ? Object.entries(fieldsNow)
                  .filter(([, v]) => v !== undefined)
                  .map(([k, v]) => `${encode(k)}=${encode(stringify(v))}`)
                  .join('&')
              : '',
          headers: { 'content-type': 'application/json' },
          body: where === 'body' ? JSON.stringify(fieldsNow) : undefined,
        });
      }
    }
  }
  return probes;
}

function byName(key: string): fc.Arbitrary<unknown> {
  const k = key.toLowerCase();
  if (k.endsWith('ids') || k === 'tags')
    return fc.array(fc.constantFrom(...ownIds()), { maxLength: 3 });
  if (k.endsWith('id') || k === 'quotedmsg') return fc.constantFrom(...ownIds());
  if (k.includes('email')) return fc.constant(`fuzz${Date.now()}@fuzz.test`);
  if (k.includes('password')) return fc.constant('Senha123');
  if (k.includes('date') || k === 'updatedat')
    return fc.constantFrom(
      '2024-01-01',
      '2024-02-30',
      '2024-13-01',
      '0000-01-01',
      'ontem',
      '2024-01-01T25:00',
    );
  if (k === 'cursor')
    return fc.constantFrom(
      'MTIz',
      'eHw=',
      Buffer.from('1|1').toString('base64url'),
      Buffer.from('2024-01-01T00:00:00.000Z|99999999999').toString('base64url'),
    );
  if (k === 'color') return fc.constantFrom('#abcdef', '#12');
  if (k === 'status') return fc.constantFrom('open', 'pending', 'closed', 'nope');
  if (k === 'provider') return fc.constantFrom('simulator', 'beta', 'x');
  if (k === 'option') return fc.constantFrom('1', '12', 'a');
  if (k === 'days' || k === 'pagenumber' || k === 'limit' || k === 'after')
    return fc.constantFrom('1', '5', '0', '-1', '1e309', '99999999999999999999');
  return fc.constantFrom('Nome Válido', 'texto\ncom linha', '55119999999999');
}

/** Anything a client could send in a field: wrong types, controls, huge, nested, bad ids. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ maxLength: 20 }).chain(withControl),
  fc.constantFrom(...BAD_IDS),
  fc.integer(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 1e308, -1e308, 0.5),
  fc.boolean(),
  fc.constant(null),
  fc.constant('x'.repeat(70_000)),
  fc.constantFrom(nested(40), nested(300)),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** A field's value: plausible, plausible with a control character (NUL most often), or junk. */
const fieldValue = (key: string, schema?: z.ZodType) =>
  fc.oneof(
    { weight: 2, arbitrary: plausible(key, schema) },
    { weight: 2, arbitrary: plausible(key, schema).chain(withControls) },
    { weight: 1, arbitrary: junk },
  );

const withControls = (v: unknown): fc.Arbitrary<unknown> =>
  typeof v === 'string' ? withControl(v) : fc.constant(v);

/** The fields a schema's object reads (through optional/pipe wrappers), or none. */
function keysOf(schema: z.ZodType | undefined): [string, z.ZodType | undefined][] {
  let node = schema as unknown as { _zod: { def: Record<string, unknown> } } | undefined;
  for (let i = 0; node && i < 6; i++) {
    const def = node._zod.def;
    if (def.type === 'object') return Object.entries(def.shape as Record<string, z.ZodType>);
    node = (def.innerType ?? def.in) as typeof node;
  }
  return [];
}

function objectOf(keys: [string, z.ZodType | undefined][]): fc.Arbitrary<Record<string, unknown>> {
  const known = Object.fromEntries(keys.map(([k, schema]) => [k, fieldValue(k, schema)]));
  const mixed = fc
    .tuple(
      fc.record(known, { requiredKeys: [] }),
      fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'companyId', 'id', 'x'), junk, {
        maxKeys: 2,
      }),
    )
    .map(([a, b]) => ({ ...b, ...a }));
  // Every field plausible and every string carrying a control character: what slips past a
  // schema that checks types but not characters reaches Postgres, which refuses NUL.
  const allControls = fc.record(
    Object.fromEntries(
      keys.map(([k, schema]) => [
        k,
        plausible(k, schema).map((v) =>
          typeof v === 'string' ? `${v.slice(0, 2)}\u0000${v.slice(2)}` : v,
        ),
      ]),
    ),
  );
  return fc.oneof({ weight: 2, arbitrary: mixed }, { weight: 1, arbitrary: allControls });
}

const PARAM_VALUES = (name: string, role: Role) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(...(role === 'super' ? spare : ownIds().map(String))),
    },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_IDS).map(encode) },
    fc.constantFrom('%', '%E0%A4%A', '..%2F..%2Fetc%2Fpasswd', 'a%00b', '1;DROP', 'x'.repeat(3000)),
    name === 'uuid' ? fc.uuid() : fc.string({ minLength: 1, maxLength: 12 }).map(encode),
  );

/** Percent-encodes like a client would; a lone surrogate goes as the invalid UTF-8 it is. */
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return `${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
};

const stringify = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function requestOf(route: ListedRoute, role: Role): fc.Arbitrary<FuzzRequest> {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const params = fc.tuple(...names.map((n) => PARAM_VALUES(n, role)));
  const queryKeys: [string, z.ZodType | undefined][] = [
    ...keysOf(route.spec?.query),
    ['searchParam', undefined],
    ['pageNumber', undefined],
  ];
  const query = objectOf(queryKeys).map((q) =>
    Object.entries(q)
      .map(([k, v]) => `${encode(k)}=${encode(stringify(v).slice(0, 4000))}`)
      .join('&'),
  );
  const jsonBody = fc.oneof(
    { weight: 4, arbitrary: objectOf(keysOf(route.spec?.body)).map((b) => JSON.stringify(b)) },
    { weight: 1, arbitrary: junk.map((v) => JSON.stringify(v) ?? 'null') },
  );
  return fc
    .record({ params, query, body: jsonBody, credentials: FORGED })
    .map(({ params: values, query: q, body, credentials }) => ({
      path: names.reduce((p, n, i) => p.replace(`:${n}`, values[i] ?? '1'), route.path),
      query: q,
      headers: { 'content-type': 'application/json' },
      body: route.method === 'GET' ? undefined : body,
      credentials,
    }));
}

const FORGED_TOKENS = [
  'x',
  'a.b.c',
  'eyJhbGciOiJub25lIn0.eyJpZCI6MSwiY29tcGFueUlkIjoxLCJ0diI6MX0.',
  'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6Ii0xIn0.c2lnbmF0dXJl',
  'x'.repeat(6000),
];
const FORGED: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.constant({}),
  fc.constantFrom(...FORGED_TOKENS).map((t) => ({ authorization: `Bearer ${t}` })),
  fc
    .constantFrom('Basic YTpi', 'Bearer', 'bearer  ', 'Token abc')
    .map((a) => ({ authorization: a })),
  fc.constantFrom(...FORGED_TOKENS, '%', '\u00ff').map((t) => ({ cookie: `jrt=${encode(t)}` })),
);

/** Fixed malformed bodies every writing route gets: broken JSON, deep JSON, junk multipart. */
function malformed(path: string): FuzzRequest[] {
  const json = (body: string, type = 'application/json') => ({
    path,
    query: '',
    headers: { 'content-type': type },
    body,
  });
  const multipart = (body: string | Buffer, boundary = 'XYZ') => ({
    path,
    query: '',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  const part = (field: string, name: string, data = 'abc') =>
    `--XYZ\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n${data}\r\n`;
  return [
    json('{"name": "a'),
    json('{"a":1,}'),
    json('\u0000'),
    json('['.repeat(20_000) + ']'.repeat(20_000)),
    json(`{"a":"${'x'.repeat(2_000_000)}"}`),
    json('{"name":"ok"}', 'application/json; charset=utf-7'),
    json('name=ok', 'application/x-www-form-urlencoded'),
    json('<xml/>', 'text/xml'),
    multipart(`${part('medias', 'a.png')}--XYZ`), // no closing "--": unexpected end of form
    multipart('no boundary here'),
    multipart(`${part('medias', 'a.png')}--XYZ--\r\n`, ''),
    multipart(`${part('unexpected', 'a.png')}--XYZ--\r\n`),
    multipart(`${part('file', 'a.png')}--XYZ--\r\n`),
    multipart(`${Array.from({ length: 12 }, () => part('medias', 'a.png')).join('')}--XYZ--\r\n`),
    multipart('--XYZ\r\nContent-Disposition: form-data\r\n\r\nsem nome\r\n--XYZ--\r\n'),
    multipart(`--XYZ\r\nBroken-Header\r\n\r\nx\r\n--XYZ--\r\n`),
  ];
}

async function send(route: ListedRoute, role: Role, req: FuzzRequest): Promise<void> {
  const session = role === 'anonymous' ? undefined : sessions[role];
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (session) headers.authorization = `Bearer ${session.token}`;
  else Object.assign(headers, req.credentials);
  const url = `${server.url}${req.path}${req.query ? `?${req.query}` : ''}`;
  // The fingerprint after one request is the one before the next (nothing else writes between).
  const before = (lastPrint ??= await fingerprint(server.app.ds));
  let status: number;
  let text: string;
  try {
    const res = await fetch(url, { method: route.method, headers, body: req.body });
    status = res.status;
    text = await res.text();
  } catch (err) {
    // The server may close a connection it refuses mid-body (oversize); that is not a 5xx.
    status = 0;
    text = String(err);
  }
  requests++;
  const what = `${role} ${route.method} ${req.path}?${req.query.slice(0, 200)} ${String(req.body ?? '').slice(0, 200)}`;
  if (status >= 500) failures.push(`${status} ${what} → ${text.slice(0, 300)}`);
  lastPrint = await fingerprint(server.app.ds);
  if (status >= 400 && status < 500) {
    const changed = changedTables(before, lastPrint);
    if (changed.length)
      failures.push(`${status} wrote ${changed.join(',')}: ${what} → ${text.slice(0, 200)}`);
  }
  if (status === 401 || /^\/(users|auth)/.test(route.path)) {
    await restore(role);
    lastPrint = undefined;
  }
}

describe('fuzz of every route (issue 11)', () => {
  it('never answers 5xx, and a 4xx writes nothing', async () => {
    const started = Date.now();
    const routes = listRoutes(server.app);
    expect(routes.length).toBeGreaterThan(80);
    let seed = 20261123;
    for (const route of routes) {
      const roles: Role[] = ['admin', 'agent', 'anonymous'];
      if (forSuper(route)) roles.push('super');
      for (const role of roles) {
        await fc.assert(
          fc.asyncProperty(requestOf(route, role), async (req) => {
            await send(route, role, req);
          }),
          { numRuns: RUNS[role], seed: seed++, endOnFailure: true },
        );
      }
      const prober: Role = forSuper(route) ? 'super' : 'admin';
      for (const req of impossibleProbes(route, prober)) await send(route, prober, req);
      if (route.method !== 'GET') {
        for (const req of malformed(route.path.replace(/:(\w+)/g, () => String(rows.ticket)))) {
          await send(route, 'admin', req);
        }
      }
    }
    console.warn(
      `fuzz: ${requests} requests over ${routes.length} routes in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(failures).toEqual([]);
  }, 420_000);
});
