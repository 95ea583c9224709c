import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ SIGNUP_RATE_LIMIT: '3', SIGNUP_GLOBAL_LIMIT: '6' });
});
afterAll(() => server?.close());

let n = 0;
const signup = (ip: string) => {
  n += 1;
  return server.request('POST', '/companies/cadastro', {
    body: {
      name: `Loja Limite ${n}`,
      email: `limite${n}@signup.test`,
      phone: '11987654321',
      password: 'segredo1',
      planId: 1,
    },
    headers: { 'x-forwarded-for': ip },
  });
};

const companies = async (): Promise<number> => {
  const root = await server.login(ADMIN.email, ADMIN.password);
  return (await server.request('GET', '/companies/list', { token: root.token })).body.length;
};

describe('public sign-up limits (issue 19 item 4)', () => {
  it('refuses a 4th sign-up from one address, then the platform-wide limit', async () => {
    const before = await companies();
    const one = await Promise.all([1, 2, 3, 4, 5].map(() => signup('10.1.0.1')));
    const statuses = one.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = one.find((r) => r.status === 429)!;
    expect(refused.body.error).toBe('ERR_SIGNUP_RATE_LIMIT');
    expect(refused.body.message).toBe(
      'Muitos cadastros feitos a partir deste endereço. Tente novamente mais tarde.',
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await companies()).toBe(before + 3);

    // Other addresses: three more fit under the platform-wide 6, then everyone waits.
    const others = [];
    for (const ip of ['10.2.0.1', '10.3.0.1', '10.4.0.1', '10.5.0.1'])
      others.push(await signup(ip));
    expect(others.map((r) => r.status)).toEqual([201, 201, 201, 429]);
    expect(others[3]!.body.error).toBe('ERR_SIGNUP_BUSY');
    expect(others[3]!.body.message).toBe(
      'Muitos cadastros no momento. Tente novamente em alguns minutos.',
    );
    expect(await companies()).toBe(before + 6);
  });
});
