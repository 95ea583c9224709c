// The super user's settings tabs (issue 15 item 1): companies, plans, helps, logos, global
// settings and integration secrets. Every super route refuses other users with 403; logos accept
// PNG, ICO and SVG only, sniffed, and SVG never runs script; secrets are sealed at rest.
import { allEndpoints, fillPath, INVALID_VIDEO_MESSAGE, LOGO_REFS } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationSecret } from '../src/modules/settings/index.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';

let server: TestServer;
let root: Session;
let a: Awaited<ReturnType<typeof createCompanyWithAdmin>>;
let b: Awaited<ReturnType<typeof createCompanyWithAdmin>>;
let agent: Session;

beforeAll(async () => {
  server = await startTestServer();
  a = await createCompanyWithAdmin(server);
  b = await createCompanyWithAdmin(server);
  // A sign-in ends the user's earlier session: the super user signs in after the fixtures did.
  root = await server.login(ADMIN.email, ADMIN.password);
  const body = { name: 'Agente', email: `ag-${Date.now()}@su.test`, password: 'senha123' };
  await server.request('POST', '/users', { token: a.admin.token, body });
  agent = await server.login(body.email, body.password);
});
afterAll(() => server?.close());

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000d4944415478da63f8cfc0f01f0005000201a2d1a4e40000000049454e44ae426082', 'hex'),
]);
const ICO = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(16, 1), PNG]);
const SVG =
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#307ABD"/></svg>';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

async function upload(
  token: string | undefined,
  ref: string | undefined,
  file?: { bytes: Buffer | string; type: string; name: string },
) {
  const form = new FormData();
  if (file) form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  const query = ref === undefined ? '' : `?ref=${encodeURIComponent(ref)}`;
  const res = await fetch(`${server.url}/settings/media-upload${query}`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('super-user routes', () => {
  it('answer 403 ERR_NO_PERMISSION to a company admin and an agent on every one', async () => {
    const superOnly = allEndpoints().filter(({ endpoint }) => endpoint.access === 'super');
    expect(superOnly.map((e) => e.name)).toEqual(
      expect.arrayContaining([
        'companies.companyList',
        'companies.listCompanies',
        'companies.createCompany',
        'plans.listPlans',
        'plans.createPlan',
        'plans.updatePlan',
        'plans.deletePlan',
        'helps.createHelp',
        'helps.updateHelp',
        'helps.deleteHelp',
        'logos.uploadLogo',
      ]),
    );
    for (const token of [a.admin.token, agent.token]) {
      for (const { name, endpoint } of superOnly) {
        const path = fillPath(endpoint.path, { id: 1, companyId: 1, ref: 'login', key: 'x' });
        const res = await server.request(endpoint.method.toUpperCase(), path, {
          token,
          body: endpoint.method === 'get' || endpoint.method === 'delete' ? undefined : {},
        });
        expect(res.status, name).toBe(403);
        expect(res.body.error, name).toBe('ERR_NO_PERMISSION');
      }
    }
  });

  it('refuse a company admin changing or deleting its own company, and the global settings', async () => {
    const calls: [string, string, unknown?][] = [
      ['PUT', `/companies/${a.companyId}`, { dueDate: '2199-01-01' }],
      ['DELETE', `/companies/${a.companyId}`],
      ['PUT', '/settings/allowregister', { value: 'disabled' }],
      ['PUT', '/settings/viewregister', { value: 'disabled' }],
      ['PUT', '/settings/trial', { value: '7' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.request(method, path, { token: a.admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    const own = await server.request('GET', `/companies/${a.companyId}`, { token: a.admin.token });
    expect(own.body.dueDate).toBe('2099-12-31');
  });
});

describe('companies (admin §5, §7)', () => {
  it('stores an empty due date as null, requires email and plan, and lists with plan and settings', async () => {
    const plan = (await server.request('GET', '/plans/list')).body[0];
    const made = await server.request('POST', '/companies', {
      token: root.token,
      body: {
        name: `Sem Vencimento ${Date.now()}`,
        email: 'sv@co.test',
        planId: plan.id,
        dueDate: '',
        recurrence: 'MENSAL',
        status: true,
        campaignsEnabled: false,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.dueDate).toBeNull();

    const updated = await server.request('PUT', `/companies/${made.body.id}`, {
      token: root.token,
      body: { dueDate: '2031-05-10', recurrence: 'TRIMESTRAL', status: 0 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      dueDate: '2031-05-10',
      recurrence: 'TRIMESTRAL',
      status: false,
    });
    const cleared = await server.request('PUT', `/companies/${made.body.id}`, {
      token: root.token,
      body: { dueDate: null },
    });
    expect(cleared.body.dueDate).toBeNull();

    for (const body of [
      { name: 'Sem Email', planId: plan.id },
      { name: 'Sem Plano', email: 'sp@co.test' },
      { name: 'Email Ruim', email: 'ruim', planId: plan.id },
      { name: 'Data Ruim', email: 'dr@co.test', planId: plan.id, dueDate: '2024-02-30' },
    ]) {
      const res = await server.request('POST', '/companies', { token: root.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }

    const list = await server.request('GET', '/companies/list', { token: root.token });
    const row = list.body.find((c: { id: number }) => c.id === made.body.id);
    expect(row.plan).toEqual({ id: plan.id, name: plan.name, value: plan.value });
    expect(row.settings).toContainEqual({ key: 'campaignsEnabled', value: 'false' });

    const gone = await server.request('DELETE', `/companies/${made.body.id}`, {
      token: root.token,
    });
    expect(gone.status).toBe(200);
    const after = await server.request('GET', `/companies/${made.body.id}`, { token: root.token });
    expect(after.status).toBe(404);
  });

  it("keeps a company's records from another company (tenant isolation)", async () => {
    for (const [method, path] of [
      ['GET', `/companies/${a.companyId}`],
      ['GET', `/companies/listPlan/${a.companyId}`],
    ]) {
      const res = await server.request(method!, path!, { token: b.admin.token });
      expect(res.status).toBe(404);
    }
    const list = await server.request('GET', '/companies/list', { token: b.admin.token });
    expect(list.status).toBe(403);
  });
});

describe('plans', () => {
  it('accept 0/1 flags, keep the flags an update does not name, and answer value as a number', async () => {
    const made = await server.request('POST', '/plans', {
      token: root.token,
      body: {
        name: `Plano Flags ${Date.now()}`,
        users: 3,
        connections: 1,
        queues: 2,
        value: '49.90',
        useKanban: 0,
        useInternal: 'false',
      },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ value: 49.9, useKanban: false, useInternal: false });
    const changed = await server.request('PUT', `/plans/${made.body.id}`, {
      token: root.token,
      body: { users: 7 },
    });
    expect(changed.body).toMatchObject({ users: 7, useKanban: false, useInternal: false });
    const dup = await server.request('POST', '/plans', {
      token: root.token,
      body: { name: made.body.name, users: 1, connections: 1, queues: 1, value: 0 },
    });
    expect(dup.status).toBe(400);
  });
});

describe('helps', () => {
  it.each([
    ['dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1s', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtube.com/shorts/a_b-c_d-e_f', 'a_b-c_d-e_f'],
    ['dQw4w9WgXc', null],
    ['dQw4w9WgXcQQ', null],
    ['dQw4w9WgXc!', null],
    ['https://vimeo.com/dQw4w9WgXcQ', null],
    ['"><script>', null],
    ['', null],
  ])('video code %j is stored as %j', async (video, stored) => {
    const res = await server.request('POST', '/helps', {
      token: root.token,
      body: { title: 'Vídeo', description: 'd', video },
    });
    if (stored === null) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(JSON.stringify(res.body.details)).toContain(
        video === '' ? INVALID_VIDEO_MESSAGE : 'body.video',
      );
    } else {
      expect(res.status).toBe(201);
      expect(res.body.video).toBe(stored);
      await server.request('DELETE', `/helps/${res.body.id}`, { token: root.token });
    }
  });

  it('the super user writes them, every user of every company reads them', async () => {
    const made = await server.request('POST', '/helps', {
      token: root.token,
      body: { title: 'Primeiros passos', description: 'Como começar', video: 'dQw4w9WgXcQ' },
    });
    expect(made.status).toBe(201);
    const changed = await server.request('PUT', `/helps/${made.body.id}`, {
      token: root.token,
      body: { title: 'Primeiros passos!' },
    });
    expect(changed.body).toMatchObject({ title: 'Primeiros passos!', video: 'dQw4w9WgXcQ' });
    for (const token of [agent.token, b.admin.token]) {
      const list = await server.request('GET', '/helps/list', { token });
      expect(list.body.map((h: { id: number }) => h.id)).toContain(made.body.id);
      const page = await server.request('GET', '/helps?searchParam=passos', { token });
      expect(page.body).toMatchObject({ count: 1, hasMore: false });
      const one = await server.request('GET', `/helps/${made.body.id}`, { token });
      expect(one.body.title).toBe('Primeiros passos!');
    }
    expect((await server.request('GET', '/helps/list')).status).toBe(401);
    const gone = await server.request('DELETE', `/helps/${made.body.id}`, { token: root.token });
    expect(gone.status).toBe(200);
    expect(
      (await server.request('GET', `/helps/${made.body.id}`, { token: agent.token })).body.error,
    ).toBe('ERR_NO_HELP_FOUND');
  });
});

describe('logos (admin §2 Logo tab, §5)', () => {
  it.each([
    [
      'no destination',
      undefined,
      { bytes: PNG, type: 'image/png', name: 'l.png' },
      400,
      'Escolha um destino!',
    ],
    [
      'an unknown destination',
      'banner',
      { bytes: PNG, type: 'image/png', name: 'l.png' },
      400,
      'Escolha um destino!',
    ],
    ['no file', 'login', undefined, 400, 'Escolha um arquivo!'],
    [
      'a JPEG',
      'login',
      { bytes: JPEG, type: 'image/jpeg', name: 'l.jpg' },
      415,
      'Use somente arquivos em formato PNG, ICO ou SVG!',
    ],
    [
      'a JPEG named .png',
      'login',
      { bytes: JPEG, type: 'image/png', name: 'l.png' },
      415,
      'Use somente arquivos em formato PNG, ICO ou SVG!',
    ],
    [
      'a PNG declared as SVG',
      'login',
      { bytes: PNG, type: 'image/svg+xml', name: 'l.svg' },
      415,
      'Use somente arquivos em formato PNG, ICO ou SVG!',
    ],
    [
      'a PNG named .ico',
      'favicon',
      { bytes: PNG, type: 'image/png', name: 'l.ico' },
      415,
      'Use somente arquivos em formato PNG, ICO ou SVG!',
    ],
    [
      'HTML named .svg',
      'login',
      { bytes: '<html><script>alert(1)</script></html>', type: 'image/svg+xml', name: 'l.svg' },
      415,
      'Use somente arquivos em formato PNG, ICO ou SVG!',
    ],
    [
      'an SVG with a script',
      'login',
      {
        bytes: SVG.replace('<rect', '<script>alert(1)</script><rect'),
        type: 'image/svg+xml',
        name: 'l.svg',
      },
      415,
      'O SVG contém scripts ou conteúdo ativo e não foi aceito.',
    ],
    [
      'an SVG with onload',
      'login',
      {
        bytes: SVG.replace('<rect', '<rect onload="alert(1)"'),
        type: 'image/svg+xml',
        name: 'l.svg',
      },
      415,
      'O SVG contém scripts ou conteúdo ativo e não foi aceito.',
    ],
    [
      'an SVG with a javascript: link',
      'login',
      {
        bytes: SVG.replace('<rect', '<a href="javascript:alert(1)"><rect/></a><rect'),
        type: 'image/svg+xml',
        name: 'l.svg',
      },
      415,
      'O SVG contém scripts ou conteúdo ativo e não foi aceito.',
    ],
    [
      'an SVG with foreignObject',
      'login',
      {
        bytes: SVG.replace('<rect', '<foreignObject><div/></foreignObject><rect'),
        type: 'image/svg+xml',
        name: 'l.svg',
      },
      415,
      'O SVG contém scripts ou conteúdo ativo e não foi aceito.',
    ],
  ] as const)('refuse %s with %i %j, storing nothing', async (_, ref, file, status, message) => {
    const before = await server.request('GET', '/public/logos');
    const res = await upload(root.token, ref, file);
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
    expect((await server.request('GET', '/public/logos')).body).toEqual(before.body);
  });

  it('stores a PNG, ICO and SVG per destination and serves them publicly, SVG inert', async () => {
    const empty = await server.request('GET', '/public/logos');
    expect(Object.keys(empty.body).sort()).toEqual([...LOGO_REFS].sort());

    const png = await upload(root.token, 'login', {
      bytes: PNG,
      type: 'image/png',
      name: 'logo.png',
    });
    expect(png.status).toBe(200);
    expect(png.body).toMatchObject({ mensagem: 'Arquivo Anexado', ref: 'login' });
    expect(png.body.url).toMatch(/^\/public\/logos\/login\?v=\d+$/);
    const ico = await upload(root.token, 'favicon', {
      bytes: ICO,
      type: 'image/vnd.microsoft.icon',
      name: 'favicon.ico',
    });
    expect(ico.status).toBe(200);
    const svg = await upload(root.token, 'signup', {
      bytes: SVG,
      type: 'image/svg+xml',
      name: 's.svg',
    });
    expect(svg.status).toBe(200);

    const list = await server.request('GET', '/public/logos');
    expect(list.body).toMatchObject({ login: png.body.url, signup: svg.body.url, interno: null });
    expect(list.body.favicon).toMatch(/^\/public\/logos\/favicon\?v=/);

    const served = await fetch(`${server.url}${png.body.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const svgServed = await fetch(`${server.url}/public/logos/signup`);
    expect(svgServed.headers.get('content-type')).toBe('image/svg+xml');
    expect(svgServed.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(svgServed.headers.get('x-content-type-options')).toBe('nosniff');
    expect(svgServed.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await svgServed.text()).toBe(SVG);

    const missing = await server.request('GET', '/public/logos/interno');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_LOGO_FOUND');

    // A new upload replaces the logo of that destination and changes its version.
    const again = await upload(root.token, 'login', {
      bytes: SVG,
      type: 'image/svg+xml',
      name: 'n.svg',
    });
    expect(again.body.url).not.toBe(png.body.url);
    const now = await fetch(`${server.url}/public/logos/login`);
    expect(now.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('refuses uploads from anyone but the super user', async () => {
    for (const token of [a.admin.token, agent.token]) {
      const res = await upload(token, 'login', { bytes: PNG, type: 'image/png', name: 'l.png' });
      expect(res.status).toBe(403);
    }
    expect(
      (await upload(undefined, 'login', { bytes: PNG, type: 'image/png', name: 'l.png' })).status,
    ).toBe(401);
  });
});

describe('integration secrets (IXC, MK-AUTH, ASAAS)', () => {
  it('are sealed at rest, answered only as the last 4, and open only for their own row', async () => {
    const secrets = {
      tokenixc: 'ixc-token-abcdefgh1111',
      clientsecretmkauth: 'mk-secret-abcdefgh2222',
      asaas:
        '$aact_YTU5YTE0M2M2N2I4MTliNzk0YTI5N2U5MzdjNWZmNDQ6OjAwMDAwMDAwMDAwMDAwMDAwMDA6OiRhYWNoXzAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAwMDAwMDAwMDAwMDo6Mzc3Nw',
    } as const;
    for (const [key, value] of Object.entries(secrets)) {
      const put = await server.request('PUT', `/settings/${key}`, {
        token: a.admin.token,
        body: { value },
      });
      expect(put.status).toBe(200);
      expect(put.body.value).toBe(`••••${value.slice(-4)}`);
      const [row] = await server.app.ds.query(
        'SELECT value FROM settings WHERE "companyId" = $1 AND key = $2',
        [a.companyId, key],
      );
      expect(row.value).toMatch(/^v1\./);
      expect(row.value).not.toContain(value.slice(-4) + '"');
      expect(row.value.includes(value)).toBe(false);
    }
    expect(await integrationSecret(server.app, a.companyId, 'asaas')).toBe(secrets.asaas);

    // Every answer that carries settings shows the mask, never the value.
    const answers = [
      await server.request('GET', '/settings', { token: a.admin.token }),
      await server.request('GET', '/settings/asaas', { token: a.admin.token }),
      await server.request('GET', `/companies/${a.companyId}`, { token: a.admin.token }),
      await server.request('GET', '/companies/list', { token: root.token }),
      await server.request('GET', '/auth/me', { token: a.admin.token }),
    ];
    for (const res of answers) {
      const text = JSON.stringify(res.body);
      for (const value of Object.values(secrets)) expect(text).not.toContain(value);
      expect(text).not.toMatch(/v1\.[A-Za-z0-9_-]+\./);
    }
    expect(answers[1]!.body).toEqual({ key: 'asaas', value: `••••${secrets.asaas.slice(-4)}` });

    // The mask sent back unchanged keeps the secret; a new value replaces it.
    await server.request('PUT', '/settings/asaas', {
      token: a.admin.token,
      body: { value: `••••${secrets.asaas.slice(-4)}` },
    });
    expect(await integrationSecret(server.app, a.companyId, 'asaas')).toBe(secrets.asaas);

    // A sealed value copied into company B's row does not open there.
    const [row] = await server.app.ds.query(
      `SELECT value FROM settings WHERE "companyId" = $1 AND key = 'asaas'`,
      [a.companyId],
    );
    await server.app.ds.query(
      `UPDATE settings SET value = $1 WHERE "companyId" = $2 AND key = 'asaas'`,
      [row.value, b.companyId],
    );
    await server.app.settings.invalidate(b.companyId);
    expect(await integrationSecret(server.app, b.companyId, 'asaas')).toBe('');
    const ofB = await server.request('GET', '/settings/asaas', { token: b.admin.token });
    expect(ofB.body.value).toBe('');
  });
});
