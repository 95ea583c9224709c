import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type Session, type TestServer } from './harness.js';
import { eventually, listen } from './socket-client.js';

let server: TestServer;
let a: { companyId: number; admin: Session };
let b: { companyId: number; admin: Session };
let agentOfA: { id: number };

beforeAll(async () => {
  server = await startTestServer();
  a = await createCompanyWithAdmin(server);
  b = await createCompanyWithAdmin(server);
  agentOfA = (
    await server.request('POST', '/users', {
      token: a.admin.token,
      body: { name: 'Agente A', email: `agente-a-${Date.now()}@a.test`, password: 'senha123' },
    })
  ).body;
});
afterAll(() => server?.close());

describe('an admin of company B and company A', () => {
  it("gets 404 for every read, update and delete of A's users", async () => {
    const id = agentOfA.id;
    const calls: [string, unknown?][] = [['GET'], ['PUT', { name: 'Tomado' }], ['DELETE']];
    for (const [method, body] of calls) {
      const res = await server.request(method, `/users/${id}`, { token: b.admin.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body.error).toBe('ERR_NO_USER_FOUND');
    }
    const list = await server.request('GET', '/users/list', { token: b.admin.token });
    expect(list.body.map((u: { id: number }) => u.id)).not.toContain(id);
    const page = await server.request('GET', '/users?searchParam=Agente A', {
      token: b.admin.token,
    });
    expect(page.body.count).toBe(0);
    const still = await server.request('GET', `/users/${id}`, { token: a.admin.token });
    expect(still.body.name).toBe('Agente A');
  });

  it("gets 404 for every read, update and delete of A's company record", async () => {
    for (const [method, path, body] of [
      ['GET', `/companies/${a.companyId}`],
      ['PUT', `/companies/${a.companyId}`, { name: 'Tomada' }],
      ['DELETE', `/companies/${a.companyId}`],
      ['PUT', `/companies/${a.companyId}/schedules`, { schedules: [] }],
      ['GET', `/companies/listPlan/${a.companyId}`],
    ] as [string, string, unknown?][]) {
      const res = await server.request(method, path, { token: b.admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_COMPANY_FOUND');
    }
    const own = await server.request('GET', `/companies/${a.companyId}`, { token: a.admin.token });
    expect(own.status).toBe(200);
    expect(own.body.schedules).toHaveLength(7);
  });

  it("cannot read or change A's settings: its own changes stay in B", async () => {
    const put = await server.request('PUT', '/settings/userRating', {
      token: b.admin.token,
      body: { value: 'enabled' },
    });
    expect(put.status).toBe(200);
    const ofA = await server.request('GET', '/settings', { token: a.admin.token });
    expect(ofA.body.find((s: { key: string }) => s.key === 'userRating').value).toBe('disabled');
    const ofB = await server.request('GET', '/settings', { token: b.admin.token });
    expect(ofB.body.find((s: { key: string }) => s.key === 'userRating').value).toBe('enabled');
    expect(ofB.body.every((s: { companyId: number }) => s.companyId === b.companyId)).toBe(true);
  });

  it("never receives A's events on its socket", async () => {
    const socketA = await listen(server.url, a.admin.token);
    const socketB = await listen(server.url, b.admin.token);
    try {
      await server.request('PUT', '/settings/call', {
        token: a.admin.token,
        body: { value: 'disabled' },
      });
      await server.request('PUT', `/users/${agentOfA.id}`, {
        token: a.admin.token,
        body: { name: 'Agente A2' },
      });
      await eventually(() => socketA.received.length >= 2);
      expect(socketA.received.map((e) => e.event)).toEqual(
        expect.arrayContaining([`company-${a.companyId}-settings`, `company-${a.companyId}-user`]),
      );
      // B's own event arrives, proving its socket works; none of A's ever does.
      await server.request('PUT', '/settings/call', {
        token: b.admin.token,
        body: { value: 'disabled' },
      });
      await eventually(() => socketB.received.length >= 1);
      expect(socketB.received.every((e) => e.event.startsWith(`company-${b.companyId}-`))).toBe(
        true,
      );
    } finally {
      socketA.close();
      socketB.close();
    }
  });
});

describe('sockets', () => {
  it('refuse a handshake without a valid token', async () => {
    await expect(listen(server.url, 'forged')).rejects.toThrow();
  });

  it('tell the previous session when the same user signs in elsewhere', async () => {
    const first = await createCompanyWithAdmin(server);
    const socket = await listen(server.url, first.admin.token);
    try {
      await server.login(first.email, first.password);
      await eventually(() => socket.received.length > 0);
      expect(socket.received[0]).toEqual({
        event: `company-${first.companyId}-auth`,
        payload: { action: 'update', user: { id: first.admin.user.id } },
      });
    } finally {
      socket.close();
    }
  });
});
