import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const newUser = (n: number, extra: Record<string, unknown> = {}) => ({
  name: `Agente ${n}`,
  email: `agente${n}-${Date.now()}@empresa.test`,
  password: 'senha123',
  profile: 'user',
  ...extra,
});

describe('users', () => {
  it('enforces the plan limit on users, counting the admin', async () => {
    const { admin } = await createCompanyWithAdmin(server, { users: 3 });
    expect(
      (await server.request('POST', '/users', { token: admin.token, body: newUser(1) })).status,
    ).toBe(201);
    expect(
      (await server.request('POST', '/users', { token: admin.token, body: newUser(2) })).status,
    ).toBe(201);
    const third = await server.request('POST', '/users', { token: admin.token, body: newUser(3) });
    expect(third.status).toBe(403);
    expect(third.body.error).toBe('ERR_PLAN_LIMIT_USERS');
    const list = await server.request('GET', '/users/list', { token: admin.token });
    expect(list.body).toHaveLength(3);
  });

  it.each([
    [{ name: 'A' }, 'Too Short!'],
    [{ name: 'x'.repeat(51) }, 'Too Long!'],
    [{ password: '1234' }, 'Too Short!'],
    [{ password: 'x'.repeat(51) }, 'Too Long!'],
    [{ email: 'nope' }, 'Invalid email'],
  ])('validates the user form (admin §5): %o → %s', async (override, message) => {
    const { admin } = await createCompanyWithAdmin(server);
    const res = await server.request('POST', '/users', {
      token: admin.token,
      body: { ...newUser(9), ...override },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details.map((d: { message: string }) => d.message)).toContain(message);
    expect((await server.request('GET', '/users/list', { token: admin.token })).body).toHaveLength(
      1,
    );
  });

  it('lets an agent change only their own name and password, never their profile', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    const body = newUser(4);
    const created = await server.request('POST', '/users', { token: admin.token, body });
    const agent = await server.login(body.email, body.password);

    const promote = await server.request('PUT', `/users/${created.body.id}`, {
      token: agent.token,
      body: { profile: 'admin' },
    });
    expect(promote.status).toBe(403);
    expect(promote.body.error).toBe('ERR_NO_PERMISSION');

    const other = await server.request('PUT', `/users/${admin.user.id}`, {
      token: agent.token,
      body: { name: 'Hacked' },
    });
    expect(other.status).toBe(403);

    const rename = await server.request('PUT', `/users/${created.body.id}`, {
      token: agent.token,
      body: { name: 'Novo Nome' },
    });
    expect(rename.status).toBe(200);
    expect(rename.body).toMatchObject({ name: 'Novo Nome', profile: 'user' });

    const create = await server.request('POST', '/users', { token: agent.token, body: newUser(5) });
    expect(create.status).toBe(403);
    const del = await server.request('DELETE', `/users/${admin.user.id}`, { token: agent.token });
    expect(del.status).toBe(403);
  });

  it('refuses a duplicate e-mail across companies', async () => {
    const a = await createCompanyWithAdmin(server);
    const b = await createCompanyWithAdmin(server);
    const res = await server.request('POST', '/users', {
      token: b.admin.token,
      body: newUser(6, { email: a.email }),
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });

  it('searches and pages users', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    await server.request('POST', '/users', {
      token: admin.token,
      body: newUser(7, { name: 'Maria Busca' }),
    });
    const res = await server.request('GET', '/users?searchParam=busca&pageNumber=1', {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 1, hasMore: false });
    expect(res.body.users[0].name).toBe('Maria Busca');
    const bad = await server.request('GET', '/users?pageNumber=zero', { token: admin.token });
    expect(bad.status).toBe(400);
  });

  describe('the super user belongs to themself (issue 11 item 2)', () => {
    let platformAdmin: { token: string };
    let superId: number;
    beforeAll(async () => {
      const root = await server.login(ADMIN.email, ADMIN.password);
      superId = root.user.id;
      const body = newUser(77, { profile: 'admin' });
      const made = await server.request('POST', '/users', { token: root.token, body });
      expect(made.status).toBe(201);
      platformAdmin = await server.login(body.email, body.password);
    });

    it.each([
      ['password', { password: 'tomada123' }],
      ['e-mail', { email: 'takeover@evil.test' }],
      ['profile', { profile: 'user' }],
      ['name', { name: 'Tomado' }],
    ])('an admin of the platform company cannot change its %s', async (_what, body) => {
      const res = await server.request('PUT', `/users/${superId}`, {
        token: platformAdmin.token,
        body,
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
      const [row] = await server.app.ds.query(
        'SELECT name, email, profile FROM users WHERE id = $1',
        [superId],
      );
      expect(row).toEqual({ name: 'Admin', email: ADMIN.email, profile: 'admin' });
      expect((await server.login(ADMIN.email, ADMIN.password)).token).toBeTruthy();
    });

    it('an admin of the platform company cannot delete it', async () => {
      const res = await server.request('DELETE', `/users/${superId}`, {
        token: platformAdmin.token,
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
      const rows: unknown[] = await server.app.ds.query('SELECT 1 FROM users WHERE id = $1', [
        superId,
      ]);
      expect(rows).toHaveLength(1);
    });

    it('the super user still changes their own account', async () => {
      const root = await server.login(ADMIN.email, ADMIN.password);
      const res = await server.request('PUT', `/users/${superId}`, {
        token: root.token,
        body: { name: 'Raiz' },
      });
      expect(res.status).toBe(200);
      await server.request('PUT', `/users/${superId}`, {
        token: (await server.login(ADMIN.email, ADMIN.password)).token,
        body: { name: 'Admin' },
      });
    });
  });
});
