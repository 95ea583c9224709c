import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { eventually, listen } from './socket-client.js';

let server: TestServer;
let a: { companyId: number; admin: Session };
let b: { companyId: number; admin: Session };

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  a = await createCompanyWithAdmin(server);
  b = await createCompanyWithAdmin(server);
});

afterAll(async () => {
  await server?.close();
});

const sim = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  provider: 'simulator',
  ...extra,
});

async function queue(companyId: number, name: string, color: string): Promise<number> {
  const [row] = await server.app.ds.query(
    `INSERT INTO queues ("companyId", name, color) VALUES ($1, $2, $3) RETURNING id`,
    [companyId, name, color],
  );
  return row.id;
}

const count = async (companyId: number) =>
  Number(
    (
      await server.app.ds.query(`SELECT count(*) FROM whatsapps WHERE "companyId" = $1`, [
        companyId,
      ])
    )[0].count,
  );

describe('connections API', () => {
  let first: any;

  it('creates with the modal defaults; the first connection becomes the default', async () => {
    const res = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: sim('Atendimento'),
    });
    expect(res.status).toBe(201);
    first = res.body;
    expect(first).toMatchObject({
      name: 'Atendimento',
      isDefault: true,
      provider: 'simulator',
      maxUseBotQueues: 3,
      expiresTicket: 0,
      timeUseBotQueues: 0,
      queues: [],
    });
    expect(first.token.length).toBeGreaterThanOrEqual(32);
  });

  it('defaults the provider to beta (Baileys)', async () => {
    const res = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: { name: 'Baileys' },
    });
    expect(res.status).toBe(201);
    expect(res.body.provider).toBe('beta');
    expect(res.body.isDefault).toBe(false);
    await server.request('DELETE', `/whatsapp/${res.body.id}`, { token: a.admin.token });
  });

  it('refuses bad input with 4xx and writes nothing', async () => {
    const before = await count(a.companyId);
    for (const body of [
      { name: 'A' },
      { name: 'x'.repeat(51) },
      {},
      { name: 'Curto', token: 'short' },
      { name: 'Fila', queueIds: ['x'] },
      { name: 'Prov', provider: 'whatsmeow' },
    ]) {
      const res = await server.request('POST', '/whatsapp', { token: a.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const dup = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: sim('atendimento'),
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_WAPP_NAME_EXISTS');
    expect(await count(a.companyId)).toBe(before);
  });

  it('needs a greeting when more than one queue is chosen', async () => {
    const q1 = await queue(a.companyId, 'Vendas', '#ff0000');
    const q2 = await queue(a.companyId, 'Suporte', '#00ff00');
    const refused = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: sim('Duas filas', { queueIds: [q1, q2] }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const put = await server.request('PUT', `/whatsapp/${first.id}`, {
      token: a.admin.token,
      body: { queueIds: [q1, q2] },
    });
    expect(put.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const ok = await server.request('PUT', `/whatsapp/${first.id}`, {
      token: a.admin.token,
      body: { queueIds: [q1, q2], greetingMessage: 'Olá! Escolha uma fila.' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.queues.map((q: any) => q.id).sort()).toEqual([q1, q2].sort());
    // A queue of another company does not exist for this one (the same 404 as a missing id).
    const foreign = await queue(b.companyId, 'Alheia', '#0000ff');
    const bad = await server.request('PUT', `/whatsapp/${first.id}`, {
      token: a.admin.token,
      body: { queueIds: [foreign] },
    });
    expect(bad.status).toBe(404);
    expect(bad.body.error).toBe('ERR_NO_QUEUE_FOUND');
  });

  it('keeps one default: moving it is fine, unsetting it is ERR_NO_OTHER_WHATSAPP', async () => {
    const second = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: sim('Vendas', { isDefault: true }),
    });
    expect(second.body.isDefault).toBe(true);
    expect(
      (await server.request('GET', `/whatsapp/${first.id}`, { token: a.admin.token })).body
        .isDefault,
    ).toBe(false);
    const refused = await server.request('PUT', `/whatsapp/${second.body.id}`, {
      token: a.admin.token,
      body: { isDefault: false },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_NO_OTHER_WHATSAPP');
    // Deleting the default promotes another one.
    const del = await server.request('DELETE', `/whatsapp/${second.body.id}`, {
      token: a.admin.token,
    });
    expect(del.status).toBe(200);
    expect(
      (await server.request('GET', `/whatsapp/${first.id}`, { token: a.admin.token })).body
        .isDefault,
    ).toBe(true);
  });

  it('never keeps an empty token; shows tokens to admins only', async () => {
    const res = await server.request('PUT', `/whatsapp/${first.id}`, {
      token: a.admin.token,
      body: { token: '' },
    });
    expect(res.body.token.length).toBeGreaterThanOrEqual(32);
    expect(res.body.token).not.toBe(first.token);
    const chosen = 'my-own-token-of-enough-length';
    const set = await server.request('PUT', `/whatsapp/${first.id}`, {
      token: a.admin.token,
      body: { token: chosen },
    });
    expect(set.body.token).toBe(chosen);

    const agentEmail = `agente-${Date.now()}@empresa.test`;
    await server.request('POST', '/users', {
      token: a.admin.token,
      body: { name: 'Agente', email: agentEmail, password: 'Senha123', profile: 'user' },
    });
    const agent = await server.login(agentEmail, 'Senha123');
    const list = await server.request('GET', '/whatsapp?session=0', { token: agent.token });
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    expect(list.body[0].token).toBeUndefined();
    const post = await server.request('POST', '/whatsapp', {
      token: agent.token,
      body: sim('Agente'),
    });
    expect(post.status).toBe(403);
    const session = await server.request('POST', `/whatsappsession/${first.id}`, {
      token: agent.token,
    });
    expect(session.status).toBe(403);
  });

  it('enforces the plan limit on connections', async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    const plan = await server.request('POST', '/plans', {
      token: root.token,
      body: { name: `Uma conexão ${Date.now()}`, users: 5, connections: 1, queues: 5, value: 10 },
    });
    const c = await createCompanyWithAdmin(server, { planId: plan.body.id });
    const ok = await server.request('POST', '/whatsapp', {
      token: c.admin.token,
      body: sim('Única'),
    });
    expect(ok.status).toBe(201);
    const over = await server.request('POST', '/whatsapp', {
      token: c.admin.token,
      body: sim('Outra'),
    });
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('ERR_PLAN_LIMIT_CONNECTIONS');
    expect(await count(c.companyId)).toBe(1);
  });
});

describe('sessions through the API and the simulator', () => {
  it('shows qrcode, then CONNECTED live on the socket after a scan; B hears nothing', async () => {
    const socketA = await listen(server.url, a.admin.token);
    const socketB = await listen(server.url, b.admin.token);
    const res = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: sim('Ao vivo'),
    });
    const id = res.body.id;
    const sessionEvents = () =>
      socketA.received
        .filter((e) => e.event === `company-${a.companyId}-whatsappSession`)
        .map((e) => (e.payload as any).session)
        .filter((s) => s.id === id);
    await eventually(() => sessionEvents().some((s) => s.status === 'qrcode'), 10_000);
    const qr = sessionEvents().find((s) => s.status === 'qrcode');
    expect(qr.qrcode).toMatch(/^2@sim-/);
    expect(qr.retries).toBe(1);
    expect(qr.updatedAt).toBeTruthy();

    const client = new SimulatorClient(server.url, a.admin.token);
    await client.scan(id, '5511987654321');
    await eventually(() => sessionEvents().some((s) => s.status === 'CONNECTED'), 10_000);
    const statuses = sessionEvents().map((s) => s.status);
    expect(statuses.indexOf('qrcode')).toBeLessThan(statuses.indexOf('CONNECTED'));
    const row = await server.request('GET', `/whatsapp/${id}`, { token: a.admin.token });
    expect(row.body).toMatchObject({ status: 'CONNECTED', number: '5511987654321', qrcode: '' });

    // Disconnect unlinks; starting again shows a new QR code.
    await server.request('DELETE', `/whatsappsession/${id}`, { token: a.admin.token });
    await client.waitForStatus(id, 'DISCONNECTED');
    expect((await client.state(id)).linked).toBe(false);
    await server.request('POST', `/whatsappsession/${id}`, { token: a.admin.token });
    await client.waitForStatus(id, 'qrcode');
    await client.scan(id);
    await client.waitForStatus(id, 'CONNECTED');
    // New QR: the credentials go and a QR code is shown again.
    await server.request('PUT', `/whatsappsession/${id}`, { token: a.admin.token });
    await client.waitForStatus(id, 'qrcode');

    expect(socketB.received.filter((e) => e.event.startsWith(`company-${a.companyId}-`))).toEqual(
      [],
    );
    expect(socketB.received.some((e) => JSON.stringify(e.payload).includes(`"id":${id}`))).toBe(
      false,
    );
    socketA.close();
    socketB.close();
  });

  it('company B gets 404 for every read, update, delete and control of A’s connection', async () => {
    const mine = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: sim('Privada'),
    });
    const id = mine.body.id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/whatsapp/${id}`],
      ['PUT', `/whatsapp/${id}`, { name: 'Roubada' }],
      ['DELETE', `/whatsapp/${id}`],
      ['POST', `/whatsappsession/${id}`],
      ['PUT', `/whatsappsession/${id}`],
      ['DELETE', `/whatsappsession/${id}`],
      ['GET', `/simulator/connections/${id}`],
      ['POST', `/simulator/connections/${id}/scan`, {}],
      ['POST', `/simulator/connections/${id}/drop`, { code: 401 }],
      ['POST', `/simulator/connections/${id}/faults`, { duplicate: true }],
      ['POST', '/simulator/inbound', { whatsappId: id, from: '5511999990000', body: 'oi' }],
      ['GET', `/simulator/outbound?whatsappId=${id}`],
      ['POST', '/simulator/ack', { whatsappId: id, id: 'X', ack: 3 }],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.request(method, path, { token: b.admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
    const listB = await server.request('GET', '/whatsapp', { token: b.admin.token });
    expect(listB.body.some((w: any) => w.id === id)).toBe(false);
    const still = await server.request('GET', `/whatsapp/${id}`, { token: a.admin.token });
    expect(still.body.name).toBe('Privada');
  });

  it('links by pairing code when a phone number is given, and lists the providers', async () => {
    const providers = await server.request('GET', '/whatsapp/providers', { token: a.admin.token });
    expect(providers.body).toEqual({ providers: ['beta', 'simulator'] });
    const res = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: sim('Por código'),
    });
    const id = res.body.id;
    const client = new SimulatorClient(server.url, a.admin.token);
    await client.waitForStatus(id, 'qrcode');
    const socket = await listen(server.url, a.admin.token);
    const bad = await server.request('PUT', `/whatsappsession/${id}`, {
      token: a.admin.token,
      body: { pairingPhone: '55 11 9' },
    });
    expect(bad.status).toBe(400);
    const ok = await server.request('PUT', `/whatsappsession/${id}`, {
      token: a.admin.token,
      body: { pairingPhone: '5511988887777' },
    });
    expect(ok.status).toBe(200);
    const pairing = () =>
      socket.received
        .map((e) => (e.payload as any).session)
        .find((s) => s?.id === id && s.status === 'PAIRING');
    await eventually(() => pairing() !== undefined, 10_000);
    expect(pairing().pairingCode).toMatch(/^[0-9A-F]{8}$/);
    socket.close();
  });

  it('a second start while starting shows the current QR at once (issue 12 item 9)', async () => {
    const res = await server.request('POST', '/whatsapp', {
      token: a.admin.token,
      body: sim('Duas vezes'),
    });
    const id = res.body.id;
    const client = new SimulatorClient(server.url, a.admin.token);
    const shown = await client.waitForStatus(id, 'qrcode');
    const socket = await listen(server.url, a.admin.token);
    // The first start is the connection's own; these two come while its QR is shown.
    for (let i = 0; i < 2; i++) {
      const again = await server.request('POST', `/whatsappsession/${id}`, {
        token: a.admin.token,
      });
      expect(again.status).toBe(200);
      // The row still carries the QR (the simulator's next one is 30 s away) ...
      const row = await server.request('GET', `/whatsapp/${id}`, { token: a.admin.token });
      expect(row.body).toMatchObject({ status: 'qrcode', qrcode: shown.qrcode });
    }
    // ... and the company was told it again, with no empty OPENING in between.
    const sessions = () =>
      socket.received
        .filter((e) => e.event === `company-${a.companyId}-whatsappSession`)
        .map((e) => (e.payload as any).session)
        .filter((s) => s.id === id);
    await eventually(() => sessions().length >= 2, 5_000);
    expect(sessions().map((s) => [s.status, s.qrcode])).toEqual([
      ['qrcode', shown.qrcode],
      ['qrcode', shown.qrcode],
    ]);
    // Scanning it still links: the starts did not restart the session.
    await client.scan(id, '5511977776666');
    await client.waitForStatus(id, 'CONNECTED');
    socket.close();
  });

  it('restarts every connection of the company', async () => {
    const res = await server.request('POST', '/whatsapp-restart', { token: a.admin.token });
    expect(res.status).toBe(200);
    const rows = await server.app.ds.query(`SELECT status FROM whatsapps WHERE "companyId" = $1`, [
      b.companyId,
    ]);
    expect(rows.every((r: any) => r.status !== 'OPENING')).toBe(true);
  });
});
