import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT: '5' });
});
afterAll(() => server?.close());

describe('POST /auth/login', () => {
  it('signs in the seeded super user and answers {token, user} with a refresh cookie', async () => {
    const res = await server.request('POST', '/auth/login', { body: ADMIN });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toMatchObject({
      email: ADMIN.email,
      profile: 'admin',
      super: true,
      companyId: 1,
      company: { id: 1 },
    });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    expect(res.body.user.company.settings).toEqual(
      expect.arrayContaining([
        { key: 'trial', value: '3' },
        { key: 'userRating', value: 'disabled' },
      ]),
    );
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^jrt=/);
    expect(cookie).toMatch(/HttpOnly/i);
  });

  it('refuses a wrong password with ERR_INVALID_CREDENTIALS', async () => {
    const res = await server.request('POST', '/auth/login', {
      body: { email: ADMIN.email, password: 'nope-nope' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_INVALID_CREDENTIALS');
  });

  it('refuses an unknown e-mail the same way', async () => {
    const res = await server.request('POST', '/auth/login', {
      body: { email: 'ghost@nowhere.test', password: 'whatever' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_INVALID_CREDENTIALS');
  });

  it.each([
    ['malformed JSON', { rawBody: '{"email":' }, 'ERR_MALFORMED_JSON'],
    ['missing password', { body: { email: 'a@b.co' } }, 'ERR_VALIDATION'],
    ['wrong-typed email', { body: { email: 42, password: 'x' } }, 'ERR_VALIDATION'],
    ['invalid email', { body: { email: 'not-an-email', password: 'x' } }, 'ERR_VALIDATION'],
  ])('answers 400 for %s', async (_name, options, code) => {
    const res = await server.request('POST', '/auth/login', options);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(code);
  });

  it('refuses a company whose due date has passed, with the date in the message', async () => {
    const { email, password } = await createCompanyWithAdmin(server, { dueDate: '2099-01-01' });
    const root = await server.login(ADMIN.email, ADMIN.password);
    const company = await server.request('GET', '/companies/list', { token: root.token });
    const row = company.body.find((c: { email: string }) => c.email === email);
    await server.request('PUT', `/companies/${row.id}`, {
      token: root.token,
      body: { dueDate: '2024-03-15' },
    });
    const res = await server.request('POST', '/auth/login', { body: { email, password } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
    expect(res.body.message).toBe(
      'Opss! Sua assinatura venceu em 15/03/2024. Entre em contato com o suporte para mais informações!',
    );
  });

  it('rate-limits repeated attempts for one e-mail', async () => {
    const email = 'victim@limit.test';
    const codes: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await server.request('POST', '/auth/login', {
        body: { email, password: `x${i}` },
      });
      codes.push(res.body.error);
    }
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('ERR_INVALID_CREDENTIALS'));
    expect(codes.slice(5)).toEqual(['ERR_TOO_MANY_REQUESTS', 'ERR_TOO_MANY_REQUESTS']);
  });
});

describe('sessions', () => {
  it('GET /auth/me answers the current user and refuses a missing token', async () => {
    const session = await server.login(ADMIN.email, ADMIN.password);
    const me = await server.request('GET', '/auth/me', { token: session.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(ADMIN.email);
    const none = await server.request('GET', '/auth/me');
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('ERR_SESSION_EXPIRED');
    const bad = await server.request('GET', '/auth/me', { token: 'garbage' });
    expect(bad.status).toBe(403);
    expect(bad.body.error).toBe('ERR_INVALID_TOKEN');
  });

  it('refresh rotates: the new pair works, the old refresh cookie and old token do not', async () => {
    const first = await server.login(ADMIN.email, ADMIN.password);
    const refreshed = await server.request('POST', '/auth/refresh_token', { cookie: first.cookie });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.email).toBe(ADMIN.email);
    const newCookie = (refreshed.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(newCookie).not.toBe(first.cookie);

    expect((await server.request('GET', '/auth/me', { token: refreshed.body.token })).status).toBe(
      200,
    );
    expect((await server.request('GET', '/auth/me', { token: first.token })).status).toBe(403);
    const replay = await server.request('POST', '/auth/refresh_token', { cookie: first.cookie });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('ERR_SESSION_EXPIRED');
    expect(
      (await server.request('POST', '/auth/refresh_token', { cookie: newCookie })).status,
    ).toBe(200);
  });

  it('refresh without a cookie is 401', async () => {
    const res = await server.request('POST', '/auth/refresh_token');
    expect(res.status).toBe(401);
  });

  it('logout revokes the access token and the refresh token', async () => {
    const session = await server.login(ADMIN.email, ADMIN.password);
    const out = await server.request('DELETE', '/auth/logout', { token: session.token });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/jrt=;/);
    expect((await server.request('GET', '/auth/me', { token: session.token })).status).toBe(403);
    expect(
      (await server.request('POST', '/auth/refresh_token', { cookie: session.cookie })).status,
    ).toBe(401);
  });
});
