import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationSecret } from '../src/modules/settings/index.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('settings', () => {
  it('a new company gets the default settings of admin §3', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    const res = await server.request('GET', '/settings', { token: admin.token });
    const values = Object.fromEntries(
      res.body.map((s: { key: string; value: string }) => [s.key, s.value]),
    );
    expect(values).toMatchObject({
      userRating: 'disabled',
      scheduleType: 'disabled',
      call: 'enabled',
      CheckMsgIsGroup: 'enabled',
      sendGreetingAccepted: 'disabled',
      sendMsgTransfTicket: 'disabled',
      chatBotType: 'text',
    });
    expect(values).not.toHaveProperty('trial');
  });

  it.each([
    ['scheduleType', 'company', 200],
    ['scheduleType', 'sometimes', 400],
    ['userRating', 'enabled', 200],
    ['userRating', 'yes', 400],
    ['notAKey', 'x', 404],
    ['trial', '5', 403],
  ])('PUT /settings/%s = %s answers %i', async (key, value, status) => {
    const { admin } = await createCompanyWithAdmin(server);
    const res = await server.request('PUT', `/settings/${key}`, {
      token: admin.token,
      body: { value },
    });
    expect(res.status).toBe(status);
    const after = await server.request('GET', '/settings', { token: admin.token });
    const stored = after.body.find((s: { key: string }) => s.key === key)?.value;
    if (status === 200) expect(stored).toBe(value);
    else expect(stored).not.toBe(value);
  });

  it('an agent cannot change settings', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    const body = { name: 'Agente', email: `ag-${Date.now()}@s.test`, password: 'senha123' };
    await server.request('POST', '/users', { token: admin.token, body });
    const agent = await server.login(body.email, body.password);
    const res = await server.request('PUT', '/settings/call', {
      token: agent.token,
      body: { value: 'disabled' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('integration secrets are write-only: masked for admins, absent for agents and /auth/me', async () => {
    const { admin, companyId } = await createCompanyWithAdmin(server);
    const secret = 'aact_live_abcdefghijkl5678';
    const put = await server.request('PUT', '/settings/asaas', {
      token: admin.token,
      body: { value: secret },
    });
    expect(put.status).toBe(200);
    expect(put.body.value).toBe('••••5678');
    const body = { name: 'Agente', email: `sec-${Date.now()}@s.test`, password: 'senha123' };
    await server.request('POST', '/users', { token: admin.token, body });
    const agent = await server.login(body.email, body.password);

    const agentList = await server.request('GET', '/settings', { token: agent.token });
    expect(agentList.status).toBe(200);
    const agentKeys = agentList.body.map((s: { key: string }) => s.key);
    expect(agentKeys).toContain('userRating');
    for (const key of ['asaas', 'tokenixc', 'clientsecretmkauth'])
      expect(agentKeys).not.toContain(key);
    const agentOne = await server.request('GET', '/settings/asaas', { token: agent.token });
    expect(agentOne.status).toBe(403);

    const adminList = await server.request('GET', '/settings', { token: admin.token });
    expect(adminList.body.find((s: { key: string }) => s.key === 'asaas').value).toBe('••••5678');
    const adminOne = await server.request('GET', '/settings/asaas', { token: admin.token });
    expect(adminOne.body).toEqual({ key: 'asaas', value: '••••5678' });

    for (const token of [admin.token, agent.token]) {
      const me = await server.request('GET', '/auth/me', { token });
      const keys = me.body.company.settings.map((s: { key: string }) => s.key);
      expect(keys).toContain('userRating');
      expect(keys).not.toContain('asaas');
      expect(JSON.stringify(me.body)).not.toContain(secret);
    }
    const company = await server.request('GET', `/companies/${companyId}`, { token: agent.token });
    expect(JSON.stringify(company.body)).not.toContain('5678');

    // The masked value sent back unchanged (a settings page saving its field) keeps the secret.
    await server.request('PUT', '/settings/asaas', {
      token: admin.token,
      body: { value: '••••5678' },
    });
    const [row] = await server.app.ds.query(
      `SELECT value FROM settings WHERE "companyId" = $1 AND key = 'asaas'`,
      [companyId],
    );
    // Sealed at rest (issue 15): the row never holds the value, and it still opens to it.
    expect(row.value).not.toContain(secret);
    expect(await integrationSecret(server.app, companyId, 'asaas')).toBe(secret);
  });
});
