import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { sessionsEnded, sessionsEndedChannel } from '../src/modules/auth/sessions.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Answer, type TestServer } from './harness.js';
import { eventually, listen } from './socket-client.js';

let server: TestServer;

const me = (token: string) => server.request('GET', '/auth/me', { token });
const cookieOf = (answer: Answer<unknown>) =>
  (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
    tv: number;
    sid: string;
  };
const tokenVersionOf = (token: string): number => claimsOf(token).tv;

/** The grace window of the user's live sessions passes (as if REFRESH_GRACE_MS went by). */
const ageSessions = (email: string) =>
  server.app.ds.query(
    `UPDATE auth_sessions SET "rotatedAt" = now() - interval '1 hour'
     WHERE "userId" = (SELECT id FROM users WHERE lower(email) = lower($1))`,
    [email],
  );

async function subscribeSessionsEnded() {
  const sub = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const events: ReturnType<typeof sessionsEnded.parse>[] = [];
  await sub.subscribe(sessionsEndedChannel(server.app.prefix));
  sub.on('message', (_channel, message) => events.push(sessionsEnded.parse(JSON.parse(message))));
  return { events, close: () => sub.quit() };
}

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT: '3' });
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

  it('backs off the address that keeps failing, never the owner elsewhere', async () => {
    const { email, password } = await createCompanyWithAdmin(server);
    const attacker = { 'x-forwarded-for': '10.66.0.1' };
    const codes: string[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await server.request('POST', '/auth/login', {
        body: { email, password: `wrong-${i}` },
        headers: attacker,
      });
      codes.push(res.body.error);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(codes.slice(0, 3)).toEqual(Array(3).fill('ERR_INVALID_CREDENTIALS'));
    expect(codes.at(-1)).toBe('ERR_TOO_MANY_REQUESTS');
    // The real owner, from another address, signs in at once.
    const owner = await server.request('POST', '/auth/login', {
      body: { email, password },
      headers: { 'x-forwarded-for': '10.7.0.1' },
    });
    expect(owner.status).toBe(200);
    // The attacker's address still waits, even with the right password.
    const still = await server.request('POST', '/auth/login', {
      body: { email, password },
      headers: attacker,
    });
    expect(still.status).toBe(429);
  });

  it('does not count successful sign-ins against the address (an office behind one IP)', async () => {
    const { email, password } = await createCompanyWithAdmin(server);
    const office = { 'x-forwarded-for': '10.20.0.1' };
    // LOGIN_RATE_LIMIT 3 here: 15 attempts per address in the window.
    for (let i = 0; i < 17; i++) {
      const res = await server.request('POST', '/auth/login', {
        body: { email, password },
        headers: office,
      });
      expect(res.status, `sign-in ${i + 1}`).toBe(200);
    }
  });

  it('still refuses an address that fails across many accounts', async () => {
    const stuffing = { 'x-forwarded-for': '10.30.0.1' };
    const codes: string[] = [];
    for (let i = 0; i < 17; i++) {
      const res = await server.request('POST', '/auth/login', {
        body: { email: `nobody${i}@stuffing.test`, password: 'guess' },
        headers: stuffing,
      });
      codes.push(res.body.error);
    }
    expect(codes.slice(0, 15)).toEqual(Array(15).fill('ERR_INVALID_CREDENTIALS'));
    expect(codes.slice(15)).toEqual(['ERR_TOO_MANY_REQUESTS', 'ERR_TOO_MANY_REQUESTS']);
  });

  it('takes as long for an unknown e-mail as for a wrong password', async () => {
    const { email } = await createCompanyWithAdmin(server);
    const time = async (who: string, n: number) => {
      const started = performance.now();
      const res = await server.request('POST', '/auth/login', {
        body: { email: who, password: 'not-the-password' },
        headers: { 'x-forwarded-for': `10.40.${n}.1` },
      });
      expect(res.body.error).toBe('ERR_INVALID_CREDENTIALS');
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(email, i));
      unknown.push(await time(`ghost${i}@nowhere.test`, 100 + i));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Without the dummy hash an unknown e-mail answers in a few ms, a known one after argon2.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.6);
  });

  it('answers every auth call with Cache-Control: no-store', async () => {
    const login = await server.request('POST', '/auth/login', { body: ADMIN });
    expect(login.headers.get('cache-control')).toBe('no-store');
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const refreshed = await server.request('POST', '/auth/refresh_token', { cookie });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    const me = await server.request('GET', '/auth/me', { token: login.body.token });
    expect(me.headers.get('cache-control')).toBe('no-store');
    const refused = await server.request('POST', '/auth/login', {
      body: { email: ADMIN.email, password: 'wrong-one' },
      headers: { 'x-forwarded-for': '10.50.0.1' },
    });
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const out = await server.request('DELETE', '/auth/logout', { token: login.body.token });
    expect(out.headers.get('cache-control')).toBe('no-store');
  });

  it("stops a deactivated company's access tokens at once", async () => {
    const { companyId, admin } = await createCompanyWithAdmin(server);
    expect((await server.request('GET', '/auth/me', { token: admin.token })).status).toBe(200);
    const root = await server.login(ADMIN.email, ADMIN.password);
    const off = await server.request('PUT', `/companies/${companyId}`, {
      token: root.token,
      body: { status: false },
    });
    expect(off.status).toBe(200);
    const me = await server.request('GET', '/auth/me', { token: admin.token });
    expect(me.status).toBe(403);
    expect(me.body.error).toBe('ERR_COMPANY_INACTIVE');
    const refresh = await server.request('POST', '/auth/refresh_token', { cookie: admin.cookie });
    expect(refresh.body.error).toBe('ERR_COMPANY_INACTIVE');
    await server.request('PUT', `/companies/${companyId}`, {
      token: root.token,
      body: { status: true },
    });
    expect((await server.request('GET', '/auth/me', { token: admin.token })).status).toBe(200);
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

  it('a refresh leaves the access tokens already handed out working', async () => {
    const first = await server.login(ADMIN.email, ADMIN.password);
    await ageSessions(ADMIN.email);
    const refreshed = await server.request('POST', '/auth/refresh_token', { cookie: first.cookie });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.email).toBe(ADMIN.email);
    const newCookie = cookieOf(refreshed);
    expect(newCookie).not.toBe(first.cookie);
    expect((await me(refreshed.body.token)).status).toBe(200);
    expect((await me(first.token)).status).toBe(200);
    expect(
      (await server.request('POST', '/auth/refresh_token', { cookie: newCookie })).status,
    ).toBe(200);
  });

  it('two tabs refreshing together with one cookie stay signed in over 20 rounds', async () => {
    const { email, password } = await createCompanyWithAdmin(server);
    const session = await server.login(email, password);
    let jar = session.cookie;
    const tokens = [session.token];
    for (let round = 0; round < 20; round++) {
      // Every other round the grace window has passed, so one of the calls rotates the token.
      if (round % 2 === 0) await ageSessions(email);
      // Tab A, tab B and a client that retries a 403 with its own refresh: all in flight at once.
      const answers = await Promise.all(
        [0, 1, 2].map(() => server.request('POST', '/auth/refresh_token', { cookie: jar })),
      );
      for (const answer of answers) {
        expect(answer.status, `round ${round}: ${JSON.stringify(answer.body)}`).toBe(200);
        tokens.push(answer.body.token);
      }
      jar = cookieOf(answers[round % answers.length]!);
      for (const token of [tokens[0]!, ...tokens.slice(-3)]) {
        expect((await me(token)).status, `round ${round}`).toBe(200);
      }
    }
    const generation: { generation: number }[] = await server.app.ds.query(
      `SELECT s.generation FROM auth_sessions s JOIN users u ON u.id = s."userId"
       WHERE u.email = $1 AND s."revokedAt" IS NULL`,
      [email],
    );
    expect(generation).toEqual([{ generation: 11 }]);
  });

  it('a refresh token replayed after the grace window ends that session family', async () => {
    const victim = await createCompanyWithAdmin(server);
    const bystander = await createCompanyWithAdmin(server);
    const ended = await subscribeSessionsEnded();
    try {
      await ageSessions(victim.email);
      const rotated = await server.request('POST', '/auth/refresh_token', {
        cookie: victim.admin.cookie,
      });
      expect(rotated.status).toBe(200);
      // Within the window the replaced cookie still works (a late tab) ...
      const late = await server.request('POST', '/auth/refresh_token', {
        cookie: victim.admin.cookie,
      });
      expect(late.status).toBe(200);
      // ... after it, the same cookie is reuse: the family ends, for the thief and the owner.
      await ageSessions(victim.email);
      const replay = await server.request('POST', '/auth/refresh_token', {
        cookie: victim.admin.cookie,
      });
      expect(replay.status).toBe(401);
      expect(replay.body.error).toBe('ERR_SESSION_EXPIRED');
      const owner = await server.request('POST', '/auth/refresh_token', {
        cookie: cookieOf(rotated),
      });
      expect(owner.status).toBe(401);
      expect((await me(rotated.body.token)).status).toBe(403);
      expect((await me(victim.admin.token)).status).toBe(403);
      await eventually(() =>
        ended.events.some(
          (e) => e.reason === 'reuse' && e.sessionId === claimsOf(victim.admin.token).sid,
        ),
      );
      // Nothing else ended: the user's tokenVersion did not move, other users are untouched.
      expect((await me(bystander.admin.token)).status).toBe(200);
      const [row] = await server.app.ds.query(
        'SELECT "tokenVersion" FROM users WHERE lower(email) = lower($1)',
        [victim.email],
      );
      expect(row.tokenVersion).toBe(tokenVersionOf(victim.admin.token));
      expect((await server.login(victim.email, victim.password)).token).toBeTruthy();
    } finally {
      await ended.close();
    }
  });

  it('a refused sign-in ends no session; a new sign-in elsewhere ends the old one', async () => {
    const { companyId, email, password, admin } = await createCompanyWithAdmin(server);
    const socket = await listen(server.url, admin.token);
    try {
      const wrong = await server.request('POST', '/auth/login', {
        body: { email, password: 'wrong-password' },
        headers: { 'x-forwarded-for': '10.60.0.1' },
      });
      expect(wrong.status).toBe(401);
      const root = await server.login(ADMIN.email, ADMIN.password);
      await server.request('PUT', `/companies/${companyId}`, {
        token: root.token,
        body: { dueDate: '2024-03-15' },
      });
      const expired = await server.request('POST', '/auth/login', { body: { email, password } });
      expect(expired.body.error).toBe('ERR_SUBSCRIPTION_EXPIRED');
      expect((await me(admin.token)).status).toBe(200);
      expect(socket.received.some((r) => r.event === `company-${companyId}-auth`)).toBe(false);
      await server.request('PUT', `/companies/${companyId}`, {
        token: root.token,
        body: { dueDate: '2099-12-31' },
      });
      await ageSessions(email);
      const refreshed = await server.request('POST', '/auth/refresh_token', {
        cookie: admin.cookie,
      });
      expect(refreshed.status).toBe(200);

      const elsewhere = await server.login(email, password);
      await eventually(() => socket.received.some((r) => r.event === `company-${companyId}-auth`));
      expect((await me(admin.token)).status).toBe(403);
      expect((await me(refreshed.body.token)).status).toBe(403);
      const old = await server.request('POST', '/auth/refresh_token', {
        cookie: cookieOf(refreshed),
      });
      expect(old.status).toBe(401);
      expect((await me(elsewhere.token)).status).toBe(200);
    } finally {
      socket.close();
    }
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
