import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
