import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_QUEUE_SCHEDULES } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from '../fixtures.js';
import { startTestServer, type Session, type TestServer } from '../harness.js';
import { eventually, listen } from '../socket-client.js';

let server: TestServer;
let a: { companyId: number; admin: Session };
let b: { companyId: number; admin: Session };
let agent: Session;

async function upload(
  path: string,
  token: string,
  name: string,
  bytes = '%PDF-1.4 hello',
  method = 'POST',
) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

beforeAll(async () => {
  // A data folder without a leading dot: /media serves files through express's sendFile.
  server = await startTestServer({ DATA_DIR: path.join(tmpdir(), `atende-routing-${Date.now()}`) });
  a = await createCompanyWithAdmin(server);
  b = await createCompanyWithAdmin(server);
  const email = `agente-${Date.now()}@a.test`;
  await server.request('POST', '/users', {
    token: a.admin.token,
    body: { name: 'Agente', email, password: 'senha123', profile: 'user' },
  });
  agent = await server.login(email, 'senha123');
});
afterAll(() => server?.close());

describe('/queue', () => {
  it('creates a queue with the default schedule and emits company-{id}-queue', async () => {
    const socket = await listen(server.url, a.admin.token);
    const res = await server.request('POST', '/queue', {
      token: a.admin.token,
      body: { name: 'Vendas', color: '#FF0000', greetingMessage: 'Olá, vendas!' },
    });
    expect(res.status).toBe(201);
    expect(res.body.schedules).toEqual(DEFAULT_QUEUE_SCHEDULES);
    expect(res.body.schedules[5]).toMatchObject({ startTime: '08:00', endTime: '12:00' });
    await eventually(() =>
      socket.received.some(
        (e) => e.event === `company-${a.companyId}-queue` && (e.payload as any).action === 'create',
      ),
    );
    socket.close();
    const list = await server.request('GET', '/queue', { token: agent.token });
    expect(list.body.map((q: any) => q.name)).toEqual(['Vendas']);
  });

  it('refuses a colour already used, bad names and colours, and non-admins', async () => {
    const dup = await server.request('POST', '/queue', {
      token: a.admin.token,
      body: { name: 'Suporte', color: '#ff0000' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    for (const body of [
      { name: 'S', color: '#00FF00' },
      { name: 'x'.repeat(51), color: '#00FF00' },
      { name: 'Suporte', color: '#0' },
      { name: 'Suporte', color: '#0000000000' },
      { name: 'Suporte' },
    ]) {
      const res = await server.request('POST', '/queue', { token: a.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const byAgent = await server.request('POST', '/queue', {
      token: agent.token,
      body: { name: 'Suporte', color: '#00FF00' },
    });
    expect(byAgent.status).toBe(403);
    const list = await server.request('GET', '/queue', { token: a.admin.token });
    expect(list.body).toHaveLength(1);
  });

  it('updates, checks colour uniqueness on update and deletes', async () => {
    const q = await server.request('POST', '/queue', {
      token: a.admin.token,
      body: { name: 'Suporte', color: '#00FF00', orderQueue: 1 },
    });
    const clash = await server.request('PUT', `/queue/${q.body.id}`, {
      token: a.admin.token,
      body: { color: '#FF0000' },
    });
    expect(clash.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    const ok = await server.request('PUT', `/queue/${q.body.id}`, {
      token: a.admin.token,
      body: { greetingMessage: 'Suporte aqui', outOfHoursMessage: 'Fechado' },
    });
    expect(ok.body).toMatchObject({ greetingMessage: 'Suporte aqui', color: '#00FF00' });
    const del = await server.request('DELETE', `/queue/${q.body.id}`, { token: a.admin.token });
    expect(del.status).toBe(200);
    expect(
      (await server.request('GET', `/queue/${q.body.id}`, { token: a.admin.token })).status,
    ).toBe(404);
  });

  it('stops at the plan limit of queues with ERR_PLAN_LIMIT_QUEUES', async () => {
    const c = await createCompanyWithAdmin(server);
    // The fixture plan allows 5 queues.
    for (let i = 0; i < 5; i++) {
      const res = await server.request('POST', '/queue', {
        token: c.admin.token,
        body: { name: `Fila ${i}`, color: `#00000${i}` },
      });
      expect(res.status).toBe(201);
    }
    const over = await server.request('POST', '/queue', {
      token: c.admin.token,
      body: { name: 'Fila 6', color: '#111111' },
    });
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('ERR_PLAN_LIMIT_QUEUES');
  });

  it('attaches media with spaces in the name turned into underscores, and removes it', async () => {
    const q = (await server.request('GET', '/queue', { token: a.admin.token })).body[0];
    const res = await upload(`/queue/${q.id}/media-upload`, a.admin.token, 'tabela de precos.pdf');
    expect(res.status).toBe(200);
    expect(res.body.queue.mediaName).toBe('tabela_de_precos.pdf');
    expect(res.body.queue.mediaPath).toMatch(/^[A-Za-z0-9_-]{20,}\.pdf$/);
    const file = await fetch(server.url + res.body.queue.mediaUrl, {
      headers: { authorization: `Bearer ${a.admin.token}` },
    });
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('%PDF-1.4 hello');
    const none = await upload(`/queue/${q.id}/media-upload`, a.admin.token, '', '');
    expect(none.status).toBe(400);
    const del = await server.request('DELETE', `/queue/${q.id}/media-upload`, {
      token: a.admin.token,
    });
    expect(del.body.queue.mediaPath).toBeNull();
  });
});

describe('/queue-options', () => {
  it('builds a tree: parentId -1 is the top level, children nest, numbers are unique per level', async () => {
    const q = (await server.request('GET', '/queue', { token: a.admin.token })).body[0];
    const post = (body: object) =>
      server.request('POST', '/queue-options', { token: a.admin.token, body });
    const one = await post({
      queueId: q.id,
      parentId: -1,
      title: 'Planos',
      message: 'Nossos planos',
      option: '1',
    });
    expect(one.status).toBe(201);
    const two = await post({
      queueId: q.id,
      title: 'Boletos',
      message: 'Segunda via',
      option: '2',
    });
    const child = await post({
      queueId: q.id,
      parentId: one.body.id,
      title: 'Fibra',
      message: 'Fibra 500MB',
      option: '1',
    });
    expect(child.status).toBe(201);
    expect((await post({ queueId: q.id, parentId: -1, option: '2' })).body.error).toBe(
      'ERR_VALIDATION',
    );
    expect((await post({ queueId: q.id, option: 'abc' })).status).toBe(400);

    const top = await server.request('GET', `/queue-options?queueId=${q.id}&parentId=-1`, {
      token: a.admin.token,
    });
    expect(top.body.map((o: any) => o.option)).toEqual(['1', '2']);
    expect(top.body[0].children.map((o: any) => o.title)).toEqual(['Fibra']);
    const under = await server.request(
      'GET',
      `/queue-options?queueId=${q.id}&parentId=${one.body.id}`,
      { token: a.admin.token },
    );
    expect(under.body.map((o: any) => o.id)).toEqual([child.body.id]);

    const loop = await server.request('PUT', `/queue-options/${one.body.id}`, {
      token: a.admin.token,
      body: { parentId: child.body.id },
    });
    expect(loop.status).toBe(400);
    const media = await upload(
      `/queue-options/${two.body.id}/media-upload`,
      a.admin.token,
      'segunda via.pdf',
    );
    expect(media.body.option.mediaName).toBe('segunda_via.pdf');
    const del = await server.request('DELETE', `/queue-options/${one.body.id}`, {
      token: a.admin.token,
    });
    expect(del.status).toBe(200);
    const gone = await server.request('GET', `/queue-options/${child.body.id}`, {
      token: a.admin.token,
    });
    expect(gone.body.error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
  });
});

describe('/quick-messages', () => {
  it('lets only admins set geral and shows a user their own and the general ones', async () => {
    const general = await server.request('POST', '/quick-messages', {
      token: a.admin.token,
      body: { shortcode: 'ola', message: 'Olá! Como posso ajudar?', geral: true },
    });
    expect(general.status).toBe(201);
    const adminPrivate = await server.request('POST', '/quick-messages', {
      token: a.admin.token,
      body: { shortcode: 'adm', message: 'Só do admin' },
    });
    const refused = await server.request('POST', '/quick-messages', {
      token: agent.token,
      body: { shortcode: 'x', message: 'y', geral: true },
    });
    expect(refused.status).toBe(403);
    const mine = await server.request('POST', '/quick-messages', {
      token: agent.token,
      body: { shortcode: 'tchau', message: 'Até logo' },
    });
    expect(mine.status).toBe(201);
    expect(
      (
        await server.request('POST', '/quick-messages', {
          token: agent.token,
          body: { shortcode: '' },
        })
      ).body.error,
    ).toBe('ERR_VALIDATION');

    const list = await server.request('GET', '/quick-messages/list', { token: agent.token });
    expect(list.body.map((q: any) => q.shortcode).sort()).toEqual(['ola', 'tchau']);
    const hidden = await server.request('GET', `/quick-messages/${adminPrivate.body.id}`, {
      token: agent.token,
    });
    expect(hidden.status).toBe(404);
    const page = await server.request('GET', '/quick-messages?searchParam=Até', {
      token: agent.token,
    });
    expect(page.body.records.map((q: any) => q.id)).toEqual([mine.body.id]);

    const editGeneral = await server.request('PUT', `/quick-messages/${general.body.id}`, {
      token: agent.token,
      body: { message: 'mudado' },
    });
    expect(editGeneral.status).toBe(403);
    const promote = await server.request('PUT', `/quick-messages/${mine.body.id}`, {
      token: agent.token,
      body: { geral: true },
    });
    expect(promote.status).toBe(403);
    const edit = await server.request('PUT', `/quick-messages/${mine.body.id}`, {
      token: agent.token,
      body: { message: 'Até mais' },
    });
    expect(edit.body.message).toBe('Até mais');
    const media = await upload(
      `/quick-messages/${mine.body.id}/media-upload`,
      agent.token,
      'meu arquivo.pdf',
    );
    expect(media.body.record).toMatchObject({ mediaName: 'meu_arquivo.pdf', isMedia: true });
    const adminEdits = await server.request('PUT', `/quick-messages/${mine.body.id}`, {
      token: a.admin.token,
      body: { geral: true },
    });
    expect(adminEdits.body.geral).toBe(true);
    expect(
      (await server.request('DELETE', `/quick-messages/${general.body.id}`, { token: agent.token }))
        .status,
    ).toBe(403);
    expect(
      (
        await server.request('DELETE', `/quick-messages/${general.body.id}`, {
          token: a.admin.token,
        })
      ).status,
    ).toBe(200);
  });
});

describe('tenant isolation', () => {
  it("company B gets 404 for A's queues, options and quick messages, and no events", async () => {
    const socketB = await listen(server.url, b.admin.token);
    const q = (await server.request('GET', '/queue', { token: a.admin.token })).body[0];
    const opt = await server.request('POST', '/queue-options', {
      token: a.admin.token,
      body: { queueId: q.id, option: '7', title: 'Sete' },
    });
    const qm = await server.request('POST', '/quick-messages', {
      token: a.admin.token,
      body: { shortcode: 'geral-a', message: 'de A', geral: true },
    });
    await server.request('PUT', `/queue/${q.id}`, {
      token: a.admin.token,
      body: { greetingMessage: 'x' },
    });

    const token = b.admin.token;
    for (const [method, path, body] of [
      ['GET', `/queue/${q.id}`],
      ['PUT', `/queue/${q.id}`, { name: 'Tomada' }],
      ['DELETE', `/queue/${q.id}`],
      ['DELETE', `/queue/${q.id}/media-upload`],
      ['GET', `/queue-options?queueId=${q.id}`],
      ['POST', '/queue-options', { queueId: q.id, option: '9' }],
    ] as [string, string, unknown?][]) {
      const res = await server.request(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_QUEUE_FOUND');
    }
    for (const [method, body] of [['GET'], ['PUT', { title: 'x' }], ['DELETE']] as [
      string,
      unknown?,
    ][]) {
      const res = await server.request(method, `/queue-options/${opt.body.id}`, { token, body });
      expect(res.status, method).toBe(404);
      expect(res.body.error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
    }
    expect((await upload(`/queue/${q.id}/media-upload`, token, 'a.pdf')).status).toBe(404);
    expect(
      (await upload(`/queue-options/${opt.body.id}/media-upload`, token, 'a.pdf')).status,
    ).toBe(404);
    for (const [method, body] of [['GET'], ['PUT', { message: 'x' }], ['DELETE']] as [
      string,
      unknown?,
    ][]) {
      const res = await server.request(method, `/quick-messages/${qm.body.id}`, { token, body });
      expect(res.status, method).toBe(404);
      expect(res.body.error).toBe('ERR_NO_QUICK_MESSAGE_FOUND');
    }
    expect(
      (await upload(`/quick-messages/${qm.body.id}/media-upload`, token, 'a.pdf')).status,
    ).toBe(404);
    expect((await server.request('GET', '/queue', { token })).body).toEqual([]);
    expect((await server.request('GET', '/quick-messages/list', { token })).body).toEqual([]);

    // A's own reads still work and nothing of A changed.
    const still = await server.request('GET', `/queue/${q.id}`, { token: a.admin.token });
    expect(still.body.name).toBe(q.name);
    await new Promise((r) => setTimeout(r, 200));
    expect(socketB.received.filter((e) => e.event.startsWith(`company-${a.companyId}-`))).toEqual(
      [],
    );
    socketB.close();
  });
});
