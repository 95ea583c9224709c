import { addLocalDays } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  // Several sign-ups from one address here; the sign-up limit has its own test (signup-limits).
  server = await startTestServer({ SIGNUP_RATE_LIMIT: '100' });
});
afterAll(() => server?.close());

const signup = (body: Record<string, unknown>) =>
  server.request('POST', '/companies/cadastro', { body });

describe('public sign-up (POST /companies/cadastro)', () => {
  it('creates the company with the trial, recurrence and status the server decides', async () => {
    const res = await signup({
      name: 'Padaria Pão Quente',
      email: 'dono@padaria.test',
      phone: '(11) 98765-4321',
      password: 'segredo1',
      planId: 1,
      // A client trying to give itself a long subscription: ignored.
      dueDate: '2099-12-31',
      recurrence: 'ANUAL',
      status: false,
      campaignsEnabled: false,
    });
    expect(res.status).toBe(201);
    // Calendar days in the company's time zone (at 22:00 in São Paulo it is already tomorrow in UTC).
    const expected = addLocalDays(Date.now(), 3);
    expect(res.body.dueDate).toBe(expected);

    const session = await server.login('dono@padaria.test', 'segredo1');
    expect(session.user.profile).toBe('admin');
    const company = await server.request('GET', `/companies/${res.body.id}`, {
      token: session.token,
    });
    expect(company.body).toMatchObject({ recurrence: 'MENSAL', status: true, dueDate: expected });
    expect(company.body.settings).toEqual(
      expect.arrayContaining([{ key: 'campaignsEnabled', value: 'true' }]),
    );
  });

  it('uses the trial setting of the platform', async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    const put = await server.request('PUT', '/settings/trial', {
      token: root.token,
      body: { value: '7' },
    });
    expect(put.status).toBe(200);
    const res = await signup({
      name: 'Oficina Sete',
      email: 'oficina@sete.test',
      phone: '11987654321',
      password: 'segredo1',
      planId: 1,
    });
    expect(res.body.dueDate).toBe(addLocalDays(Date.now(), 7));
    await server.request('PUT', '/settings/trial', { token: root.token, body: { value: '3' } });
  });

  it('refuses sign-up when registration is disabled, and bad input, writing nothing', async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    await server.request('PUT', '/settings/allowregister', {
      token: root.token,
      body: { value: 'disabled' },
    });
    const refused = await signup({
      name: 'Fechada',
      email: 'f@f.test',
      phone: '11987654321',
      password: 'segredo1',
      planId: 1,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_REGISTRATION_DISABLED');
    await server.request('PUT', '/settings/allowregister', {
      token: root.token,
      body: { value: 'enabled' },
    });

    const before = await server.request('GET', '/companies/list', { token: root.token });
    for (const body of [
      { name: 'A', email: 'x@x.test', phone: '11987654321', password: 'segredo1', planId: 1 },
      { name: 'Boa', email: 'bad', phone: '11987654321', password: 'segredo1', planId: 1 },
      { name: 'Boa', email: 'x@x.test', phone: '119', password: 'segredo1', planId: 1 },
      { name: 'Boa', email: 'x@x.test', phone: '11987654321', password: '123', planId: 1 },
      { name: 'Boa', email: 'x@x.test', phone: '11987654321', password: 'segredo1', planId: 999 },
      { name: 'Boa', email: ADMIN.email, phone: '11987654321', password: 'segredo1', planId: 1 },
    ]) {
      const res = await signup(body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.error).toMatch(/^ERR_/);
    }
    const after = await server.request('GET', '/companies/list', { token: root.token });
    expect(after.body.length).toBe(before.body.length);
  });
});

describe('super-user-only routes', () => {
  it('refuse a company admin with ERR_NO_PERMISSION', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    const calls: [string, string, unknown?][] = [
      ['GET', '/companies'],
      ['GET', '/companies/list'],
      ['POST', '/companies', { name: 'X Co', email: 'x@co.test', planId: 1 }],
      ['GET', '/plans'],
      ['POST', '/plans', { name: 'Hack', users: 1, connections: 1, queues: 1, value: 0 }],
      ['PUT', '/plans/1', { users: 999 }],
      ['DELETE', '/plans/1'],
      ['PUT', '/settings/allowregister', { value: 'disabled' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.request(method, path, { token: admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    const plan = await server.request('GET', '/plans/list');
    expect(plan.body[0].users).toBe(10);
  });

  it('lets the super user manage plans and refuses deleting a plan in use', async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    const created = await server.request('POST', '/plans', {
      token: root.token,
      body: { name: 'Pro', users: 20, connections: 4, queues: 8, value: 149.9, useKanban: false },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Pro',
      value: 149.9,
      useKanban: false,
      useCampaigns: true,
    });
    const listed = await server.request('GET', '/plans/list');
    expect(listed.body.map((p: { name: string }) => p.name)).toContain('Pro');
    const inUse = await server.request('DELETE', '/plans/1', { token: root.token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toBe('ERR_PLAN_IN_USE');
    expect(
      (await server.request('DELETE', `/plans/${created.body.id}`, { token: root.token })).status,
    ).toBe(200);
  });

  it('answers the plan of the own company at /companies/listPlan/{companyId}', async () => {
    const { admin, companyId } = await createCompanyWithAdmin(server);
    const res = await server.request('GET', `/companies/listPlan/${companyId}`, {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.plan).toMatchObject({
      users: 10,
      connections: 5,
      queues: 5,
      useCampaigns: true,
    });
    const other = await server.request('GET', '/companies/listPlan/1', { token: admin.token });
    expect(other.status).toBe(404);
  });
});

describe('company schedules', () => {
  it('saves weekday hours for the own company and validates HH:MM', async () => {
    const { admin, companyId } = await createCompanyWithAdmin(server);
    const schedules = [
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '17:30' },
    ];
    const ok = await server.request('PUT', `/companies/${companyId}/schedules`, {
      token: admin.token,
      body: { schedules },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.schedules).toEqual(schedules);
    const bad = await server.request('PUT', `/companies/${companyId}/schedules`, {
      token: admin.token,
      body: { schedules: [{ ...schedules[0], startTime: '9h' }] },
    });
    expect(bad.status).toBe(400);
  });
});
