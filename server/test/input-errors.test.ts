import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedToken } from '../src/modules/whatsapps/whatsapps.service.js';
import { ADMIN, startTestServer, type TestServer } from './harness.js';
import { listRoutes, walkSchema } from './routes.js';
import { rowsOf, type Rows } from './tenant-rows.js';
import { addAgent, tenant, type Tenant } from './ticketing/fixtures.js';

/**
 * Bad input is a 4xx with its ERR_* code, before any lookup (issue 11 item 3): control characters
 * in any request string, malformed dates and cursors, multer and JSON parser errors. Non-canonical
 * ids are in ids.test.ts.
 */

let server: TestServer;
let t: Tenant;
let rows: Rows;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  t = await tenant(server);
  const agent = await addAgent(server, t.admin);
  rows = await rowsOf(server, t, agent.id);
});
afterAll(() => server?.close());

const get = (path: string) => server.request('GET', path, { token: t.admin.token });

describe('control characters (issue 11 item 3)', () => {
  it.each([
    ['POST', '/tags', { name: 'a\u0000b' }],
    ['POST', '/contacts', { name: 'Nome\u0000', number: '5511999998888' }],
    ['POST', '/quick-messages', { shortcode: 'oi', message: 'texto\u0000' }],
    ['POST', '/ticket-notes', { note: 'nota\u0007', ticketId: 0, contactId: 0 }],
    ['PUT', '/settings/asaas', { value: 'chave\u001b' }],
  ] as const)(
    '%s %s with a control character is 400, nothing stored',
    async (method, path, body) => {
      const before = await server.app.ds.query('SELECT count(*)::int AS n FROM tags');
      const res = await server.request(method, path, { token: t.admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(await server.app.ds.query('SELECT count(*)::int AS n FROM tags')).toEqual(before);
    },
  );

  it('line breaks and tabs stay allowed in text, not in one-line fields', async () => {
    const note = await server.request('POST', '/ticket-notes', {
      token: t.admin.token,
      body: { note: 'linha 1\r\n\tlinha 2', ticketId: rows.ticket, contactId: rows.contact },
    });
    expect(note.status).toBe(201);
    const tag = await server.request('POST', '/tags', {
      token: t.admin.token,
      body: { name: 'duas\nlinhas' },
    });
    expect(tag.status).toBe(400);
  });

  it('every string of every request schema refuses NUL (read from the router)', () => {
    const open: string[] = [];
    const samples = [
      'abcdefghij',
      'Nome Válido',
      'a@b.co',
      '12345678',
      '2024-01-01',
      '#abcdef',
      'ab',
    ];
    for (const route of listRoutes(server.app)) {
      // The simulator plays WhatsApp: a customer can send anything (the inbox sanitises it).
      if (!route.spec || route.path.startsWith('/simulator')) continue;
      for (const where of ['params', 'query', 'body'] as const) {
        const schema = route.spec[where];
        if (!schema) continue;
        walkSchema(
          schema,
          (node, path, def) => {
            if (def.type !== 'string') return;
            for (const sample of samples) {
              const withNul = `${sample.slice(0, 2)}\u0000${sample.slice(2)}`;
              if (node.safeParse(sample).success && node.safeParse(withNul).success)
                open.push(`${route.method} ${route.path} ${where}.${path}`);
            }
          },
          { inputOnly: true },
        );
      }
    }
    expect([...new Set(open)]).toEqual([]);
  });
});

describe('malformed dates and cursors (issue 11 item 3)', () => {
  it.each([
    '/dashboard?date_from=2024-02-30',
    '/dashboard?date_from=2024-13-01&date_to=2024-01-01',
    '/dashboard?date_to=0000-01-01',
    '/dashboard?date_from=ontem',
    '/dashboard?days=1e3',
    '/dashboard/ticketsDay?initialDate=2024-01-32',
    '/dashboard/ticketsUsers?initialDate=2024-01-01&finalDate=99999-01-01',
    '/contacts?dateStart=2024-02-30',
    '/tickets?date=2023-02-29',
  ])('GET %s is 400 ERR_VALIDATION', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });

  it('a time after the day is dropped, never sent to Postgres', async () => {
    for (const path of [
      '/contacts?date=2024-01-01T99:99',
      '/contacts?dateStart=2024-01-01T10:00:00%2B99:99',
      '/tickets?date=2024-01-01T99:99',
      '/dashboard?date_from=2024-01-01T99:99',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
    }
  });

  it.each(['2024-02-30', '0000-01-01', '2024-13-01', '2024-01-01junk'])(
    "a company's dueDate %s is 400 (the super user's form)",
    async (dueDate) => {
      const root = await server.login(ADMIN.email, ADMIN.password);
      const res = await server.request('PUT', `/companies/${t.companyId}`, {
        token: root.token,
        body: { dueDate },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    },
  );

  it("renaming a plan to another plan's name is 400, not a 500 from the unique index", async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    const plan = (name: string) =>
      server.request('POST', '/plans', {
        token: root.token,
        body: { name, users: 1, connections: 1, queues: 1, value: 1 },
      });
    const first = await plan(`Plano A ${Date.now()}`);
    const second = await plan(`Plano B ${Date.now()}`);
    const res = await server.request('PUT', `/plans/${second.body.id}`, {
      token: root.token,
      body: { name: first.body.name },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });

  it("a value Postgres refuses past the schema is a 4xx: another connection's token is 409", async () => {
    // Tokens are stored hashed (issue 18): the other connection holds the hash of its token.
    const taken = `tok-${Date.now()}-abcdefghij`;
    await server.app.ds.query(
      `INSERT INTO whatsapps ("companyId", name, token, provider) VALUES ($1, 'Outra', $2, 'simulator')`,
      [t.companyId, storedToken(taken).token],
    );
    const res = await server.request('PUT', `/whatsapp/${t.whatsappId}`, {
      token: t.admin.token,
      body: { token: taken },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_CONFLICT');
  });

  it('a valid dashboard range still answers', async () => {
    const res = await get('/dashboard?date_from=2024-01-01&date_to=2024-12-31');
    expect(res.status).toBe(200);
  });

  const cursor = (s: string) => Buffer.from(s).toString('base64url');
  it.each([
    'not-base64!',
    cursor('1|1'),
    cursor('2024-01-01T00:00:00.000Z|99999999999'),
    cursor('0000-01-01T00:00:00.000Z|1'),
    cursor('2024-01-01T00:00:00.000Z'),
  ])('GET /messages/:ticketId?cursor=%s is 400', async (value) => {
    const res = await get(`/messages/${rows.ticket}?cursor=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });

  it('the cursor the server hands out pages on', async () => {
    const res = await get(
      `/messages/${rows.ticket}?cursor=${cursor(`${new Date().toISOString()}|${rows.message + 1}`)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toContain(rows.message);
  });
});

describe('multer and body parser errors are ERR_* 4xx (issue 11 item 3)', () => {
  const part = (field: string, name: string, data = 'abc'): string =>
    `--XYZ\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${data}\r\n`;
  const multipart = (
    path: string,
    body: string,
    boundary = 'XYZ',
  ): Promise<{ status: number; body: { error: string } }> =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.admin.token}`,
        'content-type': boundary
          ? `multipart/form-data; boundary=${boundary}`
          : 'multipart/form-data',
      },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: string } }));

  it.each([
    [
      'too many files',
      `${Array.from({ length: 11 }, () => part('medias', 'a.txt')).join('')}--XYZ--\r\n`,
      'ERR_TOO_MANY_FILES',
      400,
    ],
    [
      'a file in an unexpected field',
      `${part('outro', 'a.txt')}--XYZ--\r\n`,
      'ERR_UNEXPECTED_FILE',
      400,
    ],
    ['a truncated form', `${part('medias', 'a.txt')}--XYZ`, 'ERR_MALFORMED_MULTIPART', 400],
    [
      'a broken part header',
      '--XYZ\r\nBroken\r\n\r\nx\r\n--XYZ--\r\n',
      'ERR_MALFORMED_MULTIPART',
      400,
    ],
  ] as const)('POST /messages with %s → %s', async (_what, body, code, status) => {
    const before = await server.app.ds.query('SELECT count(*)::int AS n FROM messages');
    const res = await multipart(`/messages/${rows.ticket}`, body);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
    expect(await server.app.ds.query('SELECT count(*)::int AS n FROM messages')).toEqual(before);
  });

  it('a multipart body without a boundary is ERR_MALFORMED_MULTIPART', async () => {
    const res = await multipart('/contacts/upload', 'x', '');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_MALFORMED_MULTIPART');
  });

  it('an upload over the size limit is 413 ERR_FILE_TOO_LARGE', async () => {
    const res = await multipart(
      '/contacts/upload',
      `${part('file', 'a.csv', 'x'.repeat(5 * 1024 * 1024 + 10))}--XYZ--\r\n`,
    );
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_FILE_TOO_LARGE');
  });

  it.each([
    ['{"name": "a', 'application/json', 400, 'ERR_MALFORMED_JSON'],
    [`{"name":"${'x'.repeat(2_000_000)}"}`, 'application/json', 413, 'ERR_PAYLOAD_TOO_LARGE'],
    ['{"name":"a"}', 'application/json; charset=latin1', 415, 'ERR_UNSUPPORTED_ENCODING'],
  ] as const)('JSON body %# → %s %s', async (rawBody, type, status, code) => {
    const res = await server.request('POST', '/tags', {
      token: t.admin.token,
      rawBody,
      headers: { 'content-type': type },
    });
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(code);
  });
});
