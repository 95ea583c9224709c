// The external messages API (issue 18 item 3): the connection's token (hashed, constant-time,
// never empty or short, rotatable), Idempotency-Key, the per-token rate limit, unknown numbers,
// media limits, status, plan flag, tenant isolation and its place in /api-docs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from './harness.js';
import { scene, type Scene } from './routing/scenario.js';

const RATE = 15;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'true', EXTERNAL_API_RATE_LIMIT: String(RATE) });
}, 60_000);
afterAll(() => server?.close());

/** A scene and a fresh API token of its connection (answered once, by the rotation). */
async function apiScene(): Promise<Scene & { apiToken: string }> {
  const s = await scene(server);
  const res = await server.request('POST', `/whatsapp/${s.whatsappId}/token`, {
    token: s.admin.token,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.token.length).toBeGreaterThanOrEqual(32);
  expect(res.body.tokenLast4).toBe(res.body.token.slice(-4));
  return { ...s, apiToken: res.body.token };
}

async function call(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(server.url + path, {
    method,
    headers: {
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...(body !== undefined &&
        !(body instanceof FormData) && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body !== undefined && { body: body instanceof FormData ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const send = (token: string | undefined, body: unknown, headers?: Record<string, string>) =>
  call('POST', '/api/messages/send', token, body, headers);

const outboundTo = async (s: Scene, phone: string) =>
  (await s.sim.outbound(s.whatsappId)).filter((m) => m.to.startsWith(phone));

const apiMessages = async (companyId: number) =>
  (
    (await server.app.ds.query(
      `SELECT count(*)::int AS n FROM messages WHERE "companyId" = $1 AND "fromMe"`,
      [companyId],
    )) as { n: number }[]
  )[0]!.n;

describe('external messages API', () => {
  it('sends a text the simulated customer receives, and reports its status', async () => {
    const s = await apiScene();
    const res = await send(s.apiToken, { number: '5511960000001', body: 'Pedido enviado!' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'queued', messageIds: [res.body.messageId] });
    const got = await s.sim.until(async () => {
      const list = await outboundTo(s, '5511960000001');
      return list.length ? list : undefined;
    });
    expect(got.map((m) => m.body)).toEqual(['Pedido enviado!']);
    const status = await call('GET', `/api/messages/${res.body.messageId}`, s.apiToken);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ messageId: res.body.messageId, number: '5511960000001' });
    expect(['queued', 'sent', 'delivered', 'read']).toContain(status.body.status);
  });

  it('refuses a missing, empty, short, wrong or user token with 401 and sends nothing', async () => {
    const s = await apiScene();
    const before = await apiMessages(s.companyId);
    for (const token of [undefined, '', 'curto', 'x'.repeat(43), s.admin.token]) {
      const res = await send(token, { number: '5511960000002', body: 'oi' });
      expect(res.status, String(token)).toBe(401);
      expect(res.body.error).toBe('ERR_API_TOKEN_INVALID');
    }
    expect(await apiMessages(s.companyId)).toBe(before);
  });

  it('keeps the token hashed, shows its last 4 only, and a rotation ends the old one', async () => {
    const s = await apiScene();
    const [row] = await server.app.ds.query(
      'SELECT token, "tokenLast4" FROM whatsapps WHERE id = $1',
      [s.whatsappId],
    );
    expect(row.token).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(row.token).not.toContain(s.apiToken);
    const shown = await server.request('GET', `/whatsapp/${s.whatsappId}`, {
      token: s.admin.token,
    });
    expect(shown.body.token).toBe(`••••${s.apiToken.slice(-4)}`);
    const list = await server.request('GET', '/whatsapp', { token: s.admin.token });
    expect(JSON.stringify(list.body)).not.toContain(s.apiToken);
    // Saving the dialog with the masked token keeps it.
    const saved = await server.request('PUT', `/whatsapp/${s.whatsappId}`, {
      token: s.admin.token,
      body: { token: shown.body.token, name: 'Renomeada' },
    });
    expect(saved.status).toBe(200);
    expect((await send(s.apiToken, { number: '5511960000003', body: 'ok' })).status).toBe(200);
    // A short own token is refused on save.
    const short = await server.request('PUT', `/whatsapp/${s.whatsappId}`, {
      token: s.admin.token,
      body: { token: 'curto123' },
    });
    expect(short.status).toBe(400);
    const rotated = await server.request('POST', `/whatsapp/${s.whatsappId}/token`, {
      token: s.admin.token,
    });
    expect((await send(s.apiToken, { number: '5511960000003', body: 'ok' })).status).toBe(401);
    expect((await send(rotated.body.token, { number: '5511960000003', body: 'ok' })).status).toBe(
      200,
    );
  });

  it('sends once for 10 replays with one Idempotency-Key', async () => {
    const s = await apiScene();
    const body = { number: '5511960000004', body: 'Uma vez só' };
    const headers = { 'idempotency-key': 'pedido-4242' };
    const first = await send(s.apiToken, body, headers);
    expect(first.status).toBe(200);
    const sequential = [];
    for (let i = 0; i < 5; i++) sequential.push(await send(s.apiToken, body, headers));
    const parallel = await Promise.all(
      Array.from({ length: 4 }, () => send(s.apiToken, body, headers)),
    );
    for (const res of [...sequential, ...parallel]) {
      expect(res.status).toBe(200);
      expect(res.body.messageId).toBe(first.body.messageId);
    }
    const rows = await server.app.ds.query(
      `SELECT count(*)::int AS n FROM messages WHERE "companyId" = $1 AND body = 'Uma vez só'`,
      [s.companyId],
    );
    expect(rows[0].n).toBe(1);
    await s.sim.until(async () =>
      (await outboundTo(s, '5511960000004')).length ? true : undefined,
    );
    expect(await outboundTo(s, '5511960000004')).toHaveLength(1);
    // The same key with another request is refused.
    const other = await send(s.apiToken, { ...body, body: 'outro' }, headers);
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('ERR_IDEMPOTENCY_KEY_REUSED');
  });

  it('limits each token: over the limit 429 with Retry-After', async () => {
    const s = await apiScene();
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < RATE + 1; i++) {
      const res = await send(s.apiToken, { number: '5511960000005', body: `n${i}` });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((x) => x === 200)).toHaveLength(RATE);
    expect(limited?.body.error).toBe('ERR_API_RATE_LIMITED');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another connection's token has its own budget.
    const t = await apiScene();
    expect((await send(t.apiToken, { number: '5511960000005', body: 'x' })).status).toBe(200);
  });

  it('refuses a number not on WhatsApp, bad input and oversize media with 4xx, writing nothing', async () => {
    const s = await apiScene();
    const count = async () =>
      (
        await server.app.ds.query(
          `SELECT (SELECT count(*) FROM contacts WHERE "companyId" = $1)::int AS c,
                  (SELECT count(*) FROM messages WHERE "companyId" = $1)::int AS m`,
          [s.companyId],
        )
      )[0];
    const before = await count();
    const unknown = await send(s.apiToken, { number: '123456789', body: 'oi' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
    for (const body of [
      { body: 'sem número' },
      { number: 'abc', body: 'x' },
      { number: '5511960000006' },
    ]) {
      const res = await send(s.apiToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const big = new FormData();
    big.set('number', '5511960000006');
    big.set('body', 'grande.pdf');
    const pdf = Buffer.alloc(17 * 1024 * 1024, 0x20);
    pdf.write('%PDF-1.4\n');
    big.set('medias', new Blob([pdf], { type: 'application/pdf' }), 'grande.pdf');
    const oversize = await send(s.apiToken, big);
    expect(oversize.status).toBe(413);
    expect(oversize.body.error).toBe('ERR_FILE_TOO_LARGE');
    expect(await count()).toEqual(before);
  });

  it('sends media (multipart medias) with the text as caption', async () => {
    const s = await apiScene();
    const form = new FormData();
    form.set('number', '5511960000007');
    form.set('body', 'Seu boleto');
    form.set(
      'medias',
      new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }),
      'boleto.pdf',
    );
    const res = await send(s.apiToken, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [got] = await s.sim.until(async () => {
      const list = await outboundTo(s, '5511960000007');
      return list.length ? list : undefined;
    });
    expect(got!.kind).toBe('media');
    expect(got!.media).toMatchObject({ mimetype: 'application/pdf', caption: 'Seu boleto' });
  });

  it('refuses a plan without useExternalApi (403, nothing sent)', async () => {
    const s = await apiScene();
    const root = await server.login(ADMIN.email, ADMIN.password);
    const [{ planId }] = await server.app.ds.query('SELECT "planId" FROM companies WHERE id = $1', [
      s.companyId,
    ]);
    await server.request('PUT', `/plans/${planId}`, {
      token: root.token,
      body: { useExternalApi: false },
    });
    const before = await apiMessages(s.companyId);
    const res = await send(s.apiToken, { number: '5511960000008', body: 'oi' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect(await apiMessages(s.companyId)).toBe(before);
  });

  it("another company's token reads nothing of this company's messages", async () => {
    const a = await apiScene();
    const b = await apiScene();
    const sent = await send(a.apiToken, { number: '5511960000009', body: 'privado' });
    const res = await call('GET', `/api/messages/${sent.body.messageId}`, b.apiToken);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_MESSAGE_FOUND');
    const rotate = await server.request('POST', `/whatsapp/${a.whatsappId}/token`, {
      token: b.admin.token,
    });
    expect(rotate.status).toBe(404);
  });

  it('is in the OpenAPI document served at /api-docs', async () => {
    const doc = (await fetch(`${server.url}/api-docs/openapi.json`).then((r) => r.json())) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.paths['/api/messages/send']?.post).toBeDefined();
    expect(doc.paths['/api/messages/{id}']?.get).toBeDefined();
    expect(doc.paths['/api/messages/send']?.post?.['x-plan-flag']).toBe('useExternalApi');
  });
});
