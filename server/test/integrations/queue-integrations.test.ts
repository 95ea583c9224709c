// Queue integrations (issue 18 item 2): the routes (validation on save against the stand-ins,
// credentials never answered, tenant isolation, the plan flag, live events) and the Typebot and
// Dialogflow conversations through the simulator, ending in a hand-off to an agent's queue.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from '../fixtures.js';
import { ADMIN, startTestServer, type TestServer } from '../harness.js';
import { customer, scene, ticketOf } from '../routing/scenario.js';
import { eventually, listen } from '../socket-client.js';
import { startDialogflowStandin } from '../standins/dialogflow.js';
import { startTypebotStandin } from '../standins/typebot.js';

const PROJECT = 'loja-agente-123';
const EMAIL = `bot@${PROJECT}.iam.gserviceaccount.com`;
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: typeof pair) => k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PRIVATE_PEM = pem(pair);
const account = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: PROJECT,
    private_key_id: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    private_key: PRIVATE_PEM,
    client_email: EMAIL,
    client_id: '1',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...over,
  });
// The body of the private key (no header): what must never appear in an answer.
const KEY_BODY = PRIVATE_PEM.split('\n')[3]!;

let server: TestServer;
let df: Awaited<ReturnType<typeof startDialogflowStandin>>;
let tb: Awaited<ReturnType<typeof startTypebotStandin>>;

beforeAll(async () => {
  df = await startDialogflowStandin({
    projectId: PROJECT,
    clientEmail: EMAIL,
    publicKey: pair.publicKey,
    intents: [
      {
        displayName: 'horario',
        phrases: ['horário', 'horario'],
        messages: [{ text: { text: ['Abrimos às 8h.', 'Fechamos às 18h.'] } }],
      },
      {
        displayName: 'humano',
        phrases: ['atendente'],
        messages: [{ text: { text: ['Vou chamar alguém.'] } }, { payload: { handoff: true } }],
      },
    ],
  });
  tb = await startTypebotStandin({
    publicId: 'loja-bot',
    flow: [
      { text: 'Olá, **{{name}}**! Bem-vindo.' },
      { text: 'Escolha uma opção:' },
      { choice: ['Vendas', 'Suporte Técnico'], variable: 'setor' },
      { text: 'Você escolheu _{{setor}}_.' },
      { ask: 'Qual o seu pedido?' },
      { text: 'Obrigado! Um atendente vai falar com você.' },
    ],
  });
  server = await startTestServer({
    DIALOGFLOW_API_URL: df.url,
    DIALOGFLOW_TOKEN_URI: `${df.url}/token`,
  });
});
afterAll(async () => {
  await server?.close();
  await df?.close();
  await tb?.close();
});

const typebotBody = (over: Record<string, unknown> = {}) => ({
  type: 'typebot',
  name: 'Typebot Loja',
  urlN8N: tb.url,
  typebotSlug: 'loja-bot',
  typebotDelayMessage: 0,
  ...over,
});

describe('saving an integration', () => {
  it('checks a Dialogflow account with the service and never answers the key', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    const created = await server.request<any>('POST', '/queueIntegration', {
      token: admin.token,
      body: { type: 'dialogflow', name: 'Dialogflow', jsonContent: account(), language: 'pt-BR' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      type: 'dialogflow',
      projectId: PROJECT,
      projectName: PROJECT,
      jsonContent: '',
      credential: { set: true, last4: '5678', masked: '••••5678' },
    });
    const shown = await server.request<any>('GET', `/queueIntegration/${created.body.id}`, {
      token: admin.token,
    });
    const listed = await server.request<any>('GET', '/queueIntegration', { token: admin.token });
    for (const answer of [created, shown, listed]) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toContain(KEY_BODY);
      expect(text).not.toContain('a1b2c3d4e5f607');
    }
    // The stored value is sealed, not the JSON.
    const [row] = await server.app.ds.query(
      'SELECT "jsonContentSealed" FROM queue_integrations WHERE id = $1',
      [created.body.id],
    );
    expect(row.jsonContentSealed).not.toContain('PRIVATE');
    // Editing without pasting the JSON again keeps it.
    const renamed = await server.request<any>('PUT', `/queueIntegration/${created.body.id}`, {
      token: admin.token,
      body: { type: 'dialogflow', name: 'Dialogflow 2', jsonContent: '', language: 'en' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Dialogflow 2',
      language: 'en',
      projectId: PROJECT,
    });
    expect(renamed.body.credential.set).toBe(true);
  });

  it.each([
    ['not JSON', '{oops', 'ERR_INTEGRATION_CREDENTIALS_INVALID', /not valid JSON/],
    [
      'no private key',
      account({ private_key: undefined }),
      'ERR_INTEGRATION_CREDENTIALS_INVALID',
      /private_key/,
    ],
    ['another key (bad key)', account({ private_key: pem(other) }), 'ERR_INTEGRATION_AUTH', /./],
    ['wrong project', account({ project_id: 'outro-projeto-9' }), 'ERR_INTEGRATION_FORBIDDEN', /./],
  ])(
    'refuses a Dialogflow account with %s, precisely, writing nothing',
    async (_, json, code, why) => {
      const { admin, companyId } = await createCompanyWithAdmin(server);
      const res = await server.request<any>('POST', '/queueIntegration', {
        token: admin.token,
        body: { type: 'dialogflow', name: 'Dialogflow', jsonContent: json },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(code);
      expect(res.body.details.reason).toMatch(why);
      expect(JSON.stringify(res.body)).not.toContain(KEY_BODY);
      const [{ n }] = await server.app.ds.query(
        'SELECT count(*)::int AS n FROM queue_integrations WHERE "companyId" = $1',
        [companyId],
      );
      expect(n).toBe(0);
    },
  );

  it.each([
    [{ type: 'dialogflow', name: 'Df' }, 'ERR_INTEGRATION_JSON_REQUIRED'],
    [{ type: 'n8n', name: 'N8n', urlN8N: 'ftp://x' }, 'ERR_INTEGRATION_URL_INVALID'],
    [{ type: 'webhook', name: 'Hook', urlN8N: '' }, 'ERR_INTEGRATION_URL_INVALID'],
    [{ type: 'typebot', name: 'Tb', urlN8N: 'nada' }, 'ERR_INTEGRATION_URL_INVALID'],
    [{ type: 'typebot', name: 'Tb', typebotSlug: '' }, 'ERR_INTEGRATION_SLUG_REQUIRED'],
    [{ type: 'typebot', name: 'Tb', typebotSlug: 'nao-existe' }, 'ERR_INTEGRATION_NOT_FOUND'],
    [{ type: 'typebot', name: 'T' }, 'ERR_VALIDATION'],
    [{ type: 'zapier', name: 'Zap' }, 'ERR_VALIDATION'],
  ])('refuses %j with %s', async (body, code) => {
    const { admin } = await createCompanyWithAdmin(server);
    const full = body.type === 'typebot' ? typebotBody(body) : body;
    const res = await server.request<any>('POST', '/queueIntegration', {
      token: admin.token,
      body: full,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error).toBe(code);
  });

  it('a webhook gets a signing secret shown once; the project name is the name', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    const res = await server.request<any>('POST', '/queueIntegration', {
      token: admin.token,
      body: { type: 'webhook', name: 'Meu CRM', urlN8N: 'https://crm.example.com/hook?k=1' },
    });
    expect(res.status).toBe(200);
    expect(res.body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(res.body.projectName).toBe('Meu CRM');
    expect(res.body.signingSecret).toMatchObject({
      set: true,
      last4: res.body.webhookSecret.slice(-4),
    });
    const shown = await server.request<any>('GET', `/queueIntegration/${res.body.id}`, {
      token: admin.token,
    });
    expect(JSON.stringify(shown.body)).not.toContain(res.body.webhookSecret.slice(6, 20));
    const rotated = await server.request<any>(
      'POST',
      `/queueIntegration/${res.body.id}/rotateSecret`,
      {
        token: admin.token,
      },
    );
    expect(rotated.body.webhookSecret).not.toBe(res.body.webhookSecret);
  });

  it('testSession exchanges a token and detects an intent; a bad key is refused', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    const ok = await server.request<any>('POST', '/queueIntegration/testSession', {
      token: admin.token,
      body: { projectName: PROJECT, jsonContent: account(), language: 'es' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ projectId: PROJECT, texts: ['[es] Não entendi.'] });
    const bad = await server.request<any>('POST', '/queueIntegration/testSession', {
      token: admin.token,
      body: { jsonContent: account({ private_key: pem(other) }), language: 'pt-BR' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_INTEGRATION_AUTH');
  });

  it('lists by page with a lowercase search and live events for the company only', async () => {
    const a = await createCompanyWithAdmin(server);
    const b = await createCompanyWithAdmin(server);
    const listenA = await listen(server.url, a.admin.token);
    const listenB = await listen(server.url, b.admin.token);
    try {
      const made = await server.request<any>('POST', '/queueIntegration', {
        token: a.admin.token,
        body: typebotBody({ name: 'Bot de Vendas' }),
      });
      expect(made.status).toBe(200);
      const found = await server.request<any>('GET', '/queueIntegration?searchParam=vendas', {
        token: a.admin.token,
      });
      expect(found.body.queueIntegrations.map((i: any) => i.id)).toEqual([made.body.id]);
      expect(found.body.hasMore).toBe(false);
      const event = `company-${a.companyId}-queueIntegration`;
      await eventually(() => listenA.received.some((r) => r.event === event));
      expect(listenA.received.find((r) => r.event === event)!.payload).toMatchObject({
        action: 'create',
        integrationId: made.body.id,
        queueIntegration: { id: made.body.id, name: 'Bot de Vendas' },
      });
      await server.request('DELETE', `/queueIntegration/${made.body.id}`, { token: a.admin.token });
      await eventually(() =>
        listenA.received.some((r) => r.event === event && (r.payload as any).action === 'delete'),
      );
      expect(listenB.received.filter((r) => r.event.endsWith('queueIntegration'))).toEqual([]);
      expect(listenA.invalid).toEqual([]);
    } finally {
      listenA.close();
      listenB.close();
    }
  });
});

describe('tenant isolation and the plan flag', () => {
  it("a company never reads, changes, deletes, tests or attaches another's integration", async () => {
    const a = await createCompanyWithAdmin(server);
    const b = await createCompanyWithAdmin(server);
    const made = await server.request<any>('POST', '/queueIntegration', {
      token: a.admin.token,
      body: { type: 'dialogflow', name: 'Dialogflow A', jsonContent: account() },
    });
    const id = made.body.id;
    const tries = [
      server.request<any>('GET', `/queueIntegration/${id}`, { token: b.admin.token }),
      server.request<any>('PUT', `/queueIntegration/${id}`, {
        token: b.admin.token,
        body: { name: 'roubado' },
      }),
      server.request<any>('DELETE', `/queueIntegration/${id}`, { token: b.admin.token }),
      server.request<any>('POST', '/queueIntegration/testSession', {
        token: b.admin.token,
        body: { id },
      }),
      server.request<any>('POST', '/queue', {
        token: b.admin.token,
        body: { name: 'Fila B', color: '#112233', integrationId: id },
      }),
    ];
    for (const res of await Promise.all(tries)) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_INTEGRATION_FOUND');
    }
    const listB = await server.request<any>('GET', '/queueIntegration', { token: b.admin.token });
    expect(listB.body.queueIntegrations).toEqual([]);
    const still = await server.request<any>('GET', `/queueIntegration/${id}`, {
      token: a.admin.token,
    });
    expect(still.body.name).toBe('Dialogflow A');
  });

  it('a plan without useIntegrations is refused every call and nothing is written', async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    const plan = await server.request<any>('POST', '/plans', {
      token: root.token,
      body: {
        name: `Sem integrações ${Date.now()}`,
        users: 5,
        connections: 5,
        queues: 5,
        value: 10,
        useIntegrations: false,
      },
    });
    const { admin, companyId } = await createCompanyWithAdmin(server, { planId: plan.body.id });
    const calls: [string, string, unknown?][] = [
      ['GET', '/queueIntegration'],
      ['POST', '/queueIntegration', typebotBody()],
      ['GET', '/queueIntegration/1'],
      ['PUT', '/queueIntegration/1', { name: 'x' }],
      ['DELETE', '/queueIntegration/1'],
      ['POST', '/queueIntegration/testSession', { jsonContent: account() }],
      ['GET', '/queueIntegration/deliveries'],
      ['POST', '/queueIntegration/deliveries/1/replay'],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.request<any>(method, path, { token: admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
    const [{ n }] = await server.app.ds.query(
      'SELECT count(*)::int AS n FROM queue_integrations WHERE "companyId" = $1',
      [companyId],
    );
    expect(n).toBe(0);
  });

  it('a user who is not an admin cannot manage integrations', async () => {
    const { admin } = await createCompanyWithAdmin(server);
    const made = await server.request<any>('POST', '/users', {
      token: admin.token,
      body: {
        name: 'Agente',
        email: `ag${Date.now()}@e.test`,
        password: 'Senha123',
        profile: 'user',
      },
    });
    expect(made.status).toBeLessThan(300);
    const agent = await server.login(made.body.email, 'Senha123');
    const res = await server.request<any>('GET', '/queueIntegration', { token: agent.token });
    expect(res.status).toBe(403);
  });
});

describe('a Typebot on a queue', () => {
  it('takes the conversation, maps typed choices, restarts an expired session and hands off', async () => {
    const s = await scene(server, { queues: [{ name: 'Loja' }] });
    const made = await server.request<any>('POST', '/queueIntegration', {
      token: s.admin.token,
      body: typebotBody({
        typebotKeywordRestart: 'Reiniciar',
        typebotRestartMessage: 'Recomeçando…',
      }),
    });
    expect(made.status).toBe(200);
    const q = await server.request<any>('PUT', `/queue/${s.queues.Loja}`, {
      token: s.admin.token,
      body: { integrationId: made.body.id },
    });
    expect(q.status).toBe(200);
    const maria = customer(s, '5511900000001', 'Maria');
    await maria.say('oi');
    const opening = await maria.replies(3);
    expect(opening.map((m) => m.body)).toEqual([
      'Olá, *Maria*! Bem-vindo.',
      'Escolha uma opção:',
      '1 - Vendas\n2 - Suporte Técnico',
    ]);
    // Typed text, no accents, another case: the item Typebot expects.
    await maria.say('  suporte TECNICO ');
    const [chosen, asked] = await maria.replies(1);
    expect(chosen!.body).toBe('Você escolheu _Suporte Técnico_.');
    expect(asked).toBeUndefined();

    // Typebot forgets the session: a new one starts and the message is replayed into it.
    tb.expireAll();
    await maria.say('2');
    const replayed = await maria.replies(4);
    expect(replayed.map((m) => m.body)).toEqual([
      'Olá, *Maria*! Bem-vindo.',
      'Escolha uma opção:',
      '1 - Vendas\n2 - Suporte Técnico',
      'Você escolheu _Suporte Técnico_.',
    ]);
    // The restart keyword, trimmed and in any case, starts over with its message.
    await maria.say(' reiniciar ');
    const restarted = await maria.replies(4);
    expect(restarted.map((m) => m.body)).toEqual([
      'Recomeçando…',
      'Olá, *Maria*! Bem-vindo.',
      'Escolha uma opção:',
      '1 - Vendas\n2 - Suporte Técnico',
    ]);
    await maria.say('1');
    expect((await maria.replies(1))[0]!.body).toBe('Você escolheu _Vendas_.');
    await maria.say('Pedido 123');
    expect((await maria.replies(1))[0]!.body).toBe('Obrigado! Um atendente vai falar com você.');

    // The flow ended: the ticket waits in the queue for an agent; the bot says nothing more.
    await s.sim.until(async () => {
      const [row] = await server.app.ds.query(
        `SELECT "handedOffAt", "handOffReason" FROM integration_sessions WHERE "integrationId" = $1`,
        [made.body.id],
      );
      return row?.handedOffAt ? row : undefined;
    });
    const ticket = await ticketOf(server, s, '5511900000001');
    expect(ticket).toMatchObject({
      status: 'pending',
      queueId: s.queues.Loja,
      chatbot: false,
      userId: null,
    });
    await maria.say('alô?');
    expect(await maria.silence()).toEqual([]);
  });

  it('waits the delay between bubbles', async () => {
    const s = await scene(server, { queues: [{ name: 'Loja' }] });
    const made = await server.request<any>('POST', '/queueIntegration', {
      token: s.admin.token,
      body: typebotBody({ typebotDelayMessage: undefined }),
    });
    expect(made.body.typebotDelayMessage).toBe(1000);
    expect(made.body.typebotExpires).toBe(1);
    await server.request('PUT', `/queue/${s.queues.Loja}`, {
      token: s.admin.token,
      body: { integrationId: made.body.id },
    });
    const joao = customer(s, '5511900000002', 'João');
    await joao.say('oi');
    await joao.replies(3);
    // Each bubble is stored when it is sent: 1 s apart.
    const [row] = await server.app.ds.query(
      `SELECT array_agg(m."createdAt" ORDER BY m.id) AS at FROM messages m
        JOIN tickets t ON t.id = m."ticketId" JOIN contacts c ON c.id = t."contactId"
       WHERE c.number = '5511900000002' AND m."fromMe"`,
    );
    const times = (row.at as Date[]).map((d) => new Date(d).getTime());
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(900);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(900);
  });

  it('a Typebot that is down never loses the message: the ticket falls back to its queue', async () => {
    const s = await scene(server, { queues: [{ name: 'Loja' }] });
    const made = await server.request<any>('POST', '/queueIntegration', {
      token: s.admin.token,
      body: typebotBody(),
    });
    await server.app.ds.query(
      `UPDATE queue_integrations SET "urlN8N" = 'http://127.0.0.1:9' WHERE id = $1`,
      [made.body.id],
    );
    await server.request('PUT', `/queue/${s.queues.Loja}`, {
      token: s.admin.token,
      body: { integrationId: made.body.id },
    });
    const ana = customer(s, '5511900000003', 'Ana');
    await ana.say('preciso de ajuda');
    const row = await s.sim.until(async () => {
      const [r] = await server.app.ds.query(
        `SELECT "handOffReason" FROM integration_sessions WHERE "integrationId" = $1`,
        [made.body.id],
      );
      return r?.handOffReason ? r : undefined;
    });
    expect(row.handOffReason).toBe('failed');
    const ticket = await ticketOf(server, s, '5511900000003');
    expect(ticket).toMatchObject({
      status: 'pending',
      queueId: s.queues.Loja,
      lastMessage: 'preciso de ajuda',
    });
  });
});

describe('a Dialogflow agent on a queue', () => {
  it('answers with the fulfillment messages in the language set and hands off on a payload', async () => {
    const s = await scene(server, { queues: [{ name: 'Atendimento' }] });
    const exchangesBefore = df.exchanges.length;
    const made = await server.request<any>('POST', '/queueIntegration', {
      token: s.admin.token,
      body: { type: 'dialogflow', name: 'Agente', jsonContent: account(), language: 'pt-BR' },
    });
    await server.request('PUT', `/queue/${s.queues.Atendimento}`, {
      token: s.admin.token,
      body: { integrationId: made.body.id },
    });
    const leo = customer(s, '5511900000004', 'Léo');
    await leo.say('qual o horário?');
    expect((await leo.replies(2)).map((m) => m.body)).toEqual([
      'Abrimos às 8h.',
      'Fechamos às 18h.',
    ]);
    await leo.say('bom dia');
    expect((await leo.replies(1))[0]!.body).toBe('[pt-BR] Não entendi.');
    await leo.say('quero um atendente');
    expect((await leo.replies(1))[0]!.body).toBe('Vou chamar alguém.');
    await s.sim.until(async () => {
      const [r] = await server.app.ds.query(
        `SELECT "handOffReason" FROM integration_sessions WHERE "integrationId" = $1`,
        [made.body.id],
      );
      return r?.handOffReason === 'transfer' ? r : undefined;
    });
    await leo.say('oi?');
    expect(await leo.silence()).toEqual([]);
    // One exchange for the check on save, one for the conversation's client (then cached).
    expect(df.exchanges.length - exchangesBefore).toBe(2);
  });
});
