import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { addAgent, tenant, type Tenant } from './ticketing/fixtures.js';

/** Issue 12 item 9: the tag rules of admin §5 on the server, and one transaction per tag write. */

let server: TestServer;
let t: Tenant;
let agent: { token: string };
let supervisor: { token: string };

const tagCount = async (name: string) =>
  (
    (await server.app.ds.query('SELECT count(*)::int AS n FROM tags WHERE name = $1', [name])) as {
      n: number;
    }[]
  )[0]!.n;

beforeAll(async () => {
  server = await startTestServer();
  t = await tenant(server);
  agent = await addAgent(server, t.admin);
  const email = `sup-${randomBytes(4).toString('hex')}@empresa.test`;
  const res = await server.request('POST', '/users', {
    token: t.admin.token,
    body: { name: 'Supervisora', email, password: 'Senha123', profile: 'supervisor' },
  });
  expect(res.status).toBe(201);
  supervisor = await server.login(email, 'Senha123');
});
afterAll(() => server?.close());

describe('tag kanban switch (admin §5: admin or supervisor)', () => {
  it.each([
    ['admin', 201],
    ['supervisor', 201],
    ['user', 403],
  ] as const)('%s creating a kanban tag answers %i', async (who, status) => {
    const token = { admin: t.admin, supervisor, user: agent }[who].token;
    const name = `Kanban ${who}`;
    const res = await server.request('POST', '/tags', { token, body: { name, kanban: 1 } });
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect(await tagCount(name)).toBe(status === 201 ? 1 : 0);
  });

  it('a user cannot turn the switch on for an existing tag, and may edit the rest', async () => {
    const tag = await server.request('POST', '/tags', {
      token: agent.token,
      body: { name: 'Da agente' },
    });
    expect(tag.status).toBe(201);
    const on = await server.request('PUT', `/tags/${tag.body.id}`, {
      token: agent.token,
      body: { kanban: 1 },
    });
    expect(on.status).toBe(403);
    expect(on.body.error).toBe('ERR_NO_PERMISSION');
    const renamed = await server.request('PUT', `/tags/${tag.body.id}`, {
      token: agent.token,
      body: { name: 'Da agente 2', kanban: 0 },
    });
    expect(renamed.status).toBe(200);
    const [row] = (await server.app.ds.query('SELECT name, kanban FROM tags WHERE id = $1', [
      tag.body.id,
    ])) as { name: string; kanban: number }[];
    expect(row).toEqual({ name: 'Da agente 2', kanban: 0 });
  });
});

describe('tag name (admin §5: required, at least 3 characters)', () => {
  it.each([
    ['', 400, 'Mensagem muito curta'],
    ['ab', 400, 'Mensagem muito curta'],
    ['  ab  ', 400, 'Mensagem muito curta'],
    ['abc', 201, null],
  ] as const)('name %j answers %i', async (name, status, message) => {
    const res = await server.request('POST', '/tags', { token: t.admin.token, body: { name } });
    expect(res.status).toBe(status);
    if (message) {
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(JSON.stringify(res.body)).toContain(message);
    }
    expect(await tagCount(name.trim())).toBe(status === 201 ? 1 : 0);
  });

  it('a missing name says Obrigatório; a rename to 2 characters is refused too', async () => {
    const missing = await server.request('POST', '/tags', { token: t.admin.token, body: {} });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('Obrigatório');
    const tag = await server.request('POST', '/tags', {
      token: t.admin.token,
      body: { name: 'Longa' },
    });
    const res = await server.request('PUT', `/tags/${tag.body.id}`, {
      token: t.admin.token,
      body: { name: 'Lo' },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Mensagem muito curta');
    expect(await tagCount('Longa')).toBe(1);
  });
});

describe('a tag and its change row commit together', () => {
  it('when the change row cannot be written, no tag is stored', async () => {
    // This file's database is its own clone: the trigger refuses tag changes only here.
    await server.app.ds.query(`
      CREATE FUNCTION refuse_tag_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'change row refused'; END $$;
      CREATE TRIGGER refuse_tag_change BEFORE INSERT ON change_pending
        FOR EACH ROW WHEN (NEW.entity = 'tag') EXECUTE FUNCTION refuse_tag_change();`);
    try {
      const res = await server.request('POST', '/tags', {
        token: t.admin.token,
        body: { name: 'Sem mudança' },
      });
      expect(res.status).toBe(500);
      expect(await tagCount('Sem mudança')).toBe(0);
      const tag = (await server.app.ds.query(
        `SELECT id FROM tags WHERE name = 'abc' AND "companyId" = $1`,
        [t.companyId],
      )) as { id: number }[];
      const rename = await server.request('PUT', `/tags/${tag[0]!.id}`, {
        token: t.admin.token,
        body: { name: 'Renomeada' },
      });
      expect(rename.status).toBe(500);
      expect(await tagCount('Renomeada')).toBe(0);
    } finally {
      await server.app.ds.query(`
        DROP TRIGGER refuse_tag_change ON change_pending;
        DROP FUNCTION refuse_tag_change();`);
    }
    const ok = await server.request('POST', '/tags', {
      token: t.admin.token,
      body: { name: 'Sem mudança' },
    });
    expect(ok.status).toBe(201);
    expect(await tagCount('Sem mudança')).toBe(1);
  });
});
