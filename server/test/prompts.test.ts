// AI prompts (issue 18 item 1) against a local OpenAI-compatible stand-in: the routes (keys
// never answered, defaults, 'Informe o setor', admins only, tenant isolation, plan flag), and
// the AI answering customers through the simulator (history, debounce, hand-off, agent stop,
// fallback on failure, voice, transcription, metering).
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTurn, sweepTurns } from '../src/modules/prompts/index.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type TestServer } from './harness.js';
import { customer, scene, ticketOf, type Scene } from './routing/scenario.js';
import { startOpenAiStandin } from './standins/openai.js';

const KEY = 'sk-test-7c1e9a4b2d6f8e0a3c5b7d9f1a2e4c6b';
let server: TestServer;
let ai: Awaited<ReturnType<typeof startOpenAiStandin>>;
let broken: Awaited<ReturnType<typeof startOpenAiStandin>>;

beforeAll(async () => {
  ai = await startOpenAiStandin({ apiKey: KEY, models: ['gpt-test'] });
  broken = await startOpenAiStandin({
    apiKey: KEY,
    models: ['gpt-test'],
    content: () => 'isto não é JSON',
  });
  server = await startTestServer({ SIMULATOR: 'true' });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await ai?.close();
  await broken?.close();
});

const completions = (standin = ai) =>
  standin.received.filter((r) => r.path.startsWith('/v1/chat/completions'));
const bodyOf = (r: { body: Buffer }) => JSON.parse(r.body.toString('utf8'));

async function makePrompt(s: Scene, over: Record<string, unknown> = {}) {
  const res = await server.request('POST', '/prompt', {
    token: s.admin.token,
    body: {
      name: 'Assistente',
      prompt: 'Você é o assistente da loja. Seja breve.',
      apiKey: KEY,
      queueId: Object.values(s.queues)[0],
      baseUrl: ai.baseUrl,
      model: 'gpt-test',
      ...over,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A scene whose connection answers with a prompt (and has the queues given). */
async function aiScene(over: Record<string, unknown> = {}, queues = ['Suporte']) {
  const s = await scene(server, {
    queues: queues.map((name) => ({ name })),
    connection: { greetingMessage: 'Olá! Escolha uma opção.' },
  });
  const prompt = await makePrompt(s, over);
  const res = await server.request('PUT', `/whatsapp/${s.whatsappId}`, {
    token: s.admin.token,
    body: { promptId: prompt.id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { s, prompt };
}

describe('prompt routes', () => {
  it('creates with the defaults of §9, seals the key and answers only its last 4', async () => {
    const s = await scene(server, { queues: [{ name: 'Vendas' }] });
    const made = await makePrompt(s);
    expect(made).toMatchObject({
      voice: 'texto',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      apiKey: `••••${KEY.slice(-4)}`,
      queue: { name: 'Vendas' },
    });
    const [row] = await server.app.ds.query('SELECT * FROM prompts WHERE id = $1', [made.id]);
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(JSON.stringify(row)).not.toContain(KEY.slice(0, 12));

    // Keys never in any answer body: list, show, update (a masked key kept as it was).
    const list = await server.request('GET', '/prompt', { token: s.admin.token });
    const show = await server.request('GET', `/prompt/${made.id}`, { token: s.admin.token });
    const upd = await server.request('PUT', `/prompt/${made.id}`, {
      token: s.admin.token,
      body: { ...made, apiKey: made.apiKey, name: 'Outro nome', voiceKey: 'azure-key-123456789' },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.voiceKey).toBe('••••6789');
    for (const res of [list, show, upd]) {
      expect(JSON.stringify(res.body)).not.toContain(KEY.slice(0, 8));
      expect(JSON.stringify(res.body)).not.toContain('azure-key-123456789');
    }
    expect(list.body.prompts).toHaveLength(1);
  });

  it("refuses a prompt without a queue with 'Informe o setor' and a bad key precisely", async () => {
    const s = await scene(server, { queues: [{ name: 'Fila' }] });
    const base = { name: 'P', prompt: 'x', apiKey: KEY, baseUrl: ai.baseUrl, model: 'gpt-test' };
    const noQueue = await server.request('POST', '/prompt', { token: s.admin.token, body: base });
    expect(noQueue.status).toBe(400);
    expect(JSON.stringify(noQueue.body)).toContain('Informe o setor');
    const badKey = await server.request('POST', '/prompt', {
      token: s.admin.token,
      body: { ...base, apiKey: 'sk-wrong-key-0000000000000000', queueId: s.queues.Fila },
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error).toBe('ERR_INTEGRATION_AUTH');
    expect(JSON.stringify(badKey.body)).not.toContain('sk-wrong-key');
    const badModel = await server.request('POST', '/prompt', {
      token: s.admin.token,
      body: { ...base, model: 'gpt-none', queueId: s.queues.Fila },
    });
    expect(badModel.body.error).toBe('ERR_INTEGRATION_NOT_FOUND');
    const rows = await server.app.ds.query('SELECT 1 FROM prompts WHERE "companyId" = $1', [
      s.companyId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('is readable by no agent, and another company can neither read, change nor use it', async () => {
    const s = await scene(server, { queues: [{ name: 'Alfa' }] });
    const made = await makePrompt(s);
    const email = `agente-p-${Date.now()}@empresa.test`;
    await server.request('POST', '/users', {
      token: s.admin.token,
      body: { name: 'Agente', email, password: 'Senha123', profile: 'user' },
    });
    const agent = await server.login(email, 'Senha123');
    expect((await server.request('GET', '/prompt', { token: agent.token })).status).toBe(403);
    expect((await server.request('GET', `/prompt/${made.id}`, { token: agent.token })).status).toBe(
      403,
    );

    const other = await createCompanyWithAdmin(server);
    const t = other.admin.token;
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'roubado' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await server.request(method, `/prompt/${made.id}`, { token: t, body });
      expect(res.status, method).toBe(404);
      expect(res.body.error).toBe('ERR_NO_PROMPT_FOUND');
    }
    expect((await server.request('GET', '/prompt', { token: t })).body.prompts).toEqual([]);
    // Nor attach it to its own queue or connection.
    const q = await server.request('POST', '/queue', {
      token: t,
      body: { name: 'Fila', color: '#101010', promptId: made.id },
    });
    expect(q.status, JSON.stringify(q.body)).toBe(404);
    const [row] = await server.app.ds.query('SELECT name FROM prompts WHERE id = $1', [made.id]);
    expect(row.name).toBe('Assistente');
  });

  it('refuses every prompt route to a plan without useOpenAi, writing nothing', async () => {
    const s = await scene(server, { queues: [{ name: 'Alfa' }] });
    const made = await makePrompt(s);
    const root = await server.login(ADMIN.email, ADMIN.password);
    const [{ planId }] = await server.app.ds.query('SELECT "planId" FROM companies WHERE id = $1', [
      s.companyId,
    ]);
    await server.request('PUT', `/plans/${planId}`, {
      token: root.token,
      body: { useOpenAi: false },
    });
    for (const [method, path] of [
      ['GET', '/prompt'],
      ['GET', '/prompt/usage'],
      ['GET', `/prompt/${made.id}`],
      ['POST', '/prompt'],
      ['PUT', `/prompt/${made.id}`],
      ['DELETE', `/prompt/${made.id}`],
    ] as const) {
      const res = await server.request(method, path, {
        token: s.admin.token,
        ...(method === 'GET' ? {} : { body: {} }),
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
    expect(
      await server.app.ds.query('SELECT 1 FROM prompts WHERE id = $1', [made.id]),
    ).toHaveLength(1);
  });
});

describe('the AI answering customers', () => {
  it('answers with the history in chronological order (golden), the current message once', async () => {
    const { s } = await aiScene();
    const c = customer(s, '5511970000001');
    const before = completions().length;
    await c.say('Oi, bom dia');
    const [first] = await c.replies(1);
    expect(first!.body).toBe('Você disse: Oi, bom dia (2 mensagens)');
    await c.say('Qual o horário?');
    const [second] = await c.replies(1);
    expect(second!.body).toBe('Você disse: Qual o horário? (4 mensagens)');
    const sent = completions().slice(before).map(bodyOf);
    expect(sent).toHaveLength(2);
    expect(sent[1].messages).toEqual([
      {
        role: 'system',
        content: expect.stringContaining('Você é o assistente da loja. Seja breve.'),
      },
      { role: 'user', content: 'Oi, bom dia' },
      { role: 'assistant', content: 'Você disse: Oi, bom dia (2 mensagens)' },
      { role: 'user', content: 'Qual o horário?' },
    ]);
    expect(sent[1].max_completion_tokens).toBe(100);
    expect(sent[1].temperature).toBe(1);
  });

  it('gives several quick messages one answer (debounce)', async () => {
    const { s } = await aiScene();
    const c = customer(s, '5511970000002');
    const before = completions().length;
    await c.say('Olá');
    await c.say('tudo bem?');
    await c.say('preciso de ajuda');
    const [reply] = await c.replies(1);
    expect(reply!.body).toBe('Você disse: preciso de ajuda (4 mensagens)');
    expect(completions().length - before).toBe(1);
    expect(await c.silence(PROMPT_QUIET_MS)).toEqual([]);
  });

  it('hands off: a transfer action moves the ticket to the queue and the AI stops', async () => {
    const { s } = await aiScene({}, ['Suporte', 'Vendas']);
    const c = customer(s, '5511970000003');
    await c.say('quero falar com um atendente');
    const [reply] = await c.replies(1);
    expect(reply!.body).toContain('Você disse: quero falar com um atendente');
    await eventually(async () => {
      const t = await ticketOf(server, s, '5511970000003');
      expect(t.queueId).toBe(s.queues.Suporte);
      expect(t.chatbot).toBe(false);
    });
    const [turn] = await server.app.ds.query(
      'SELECT "stopReason" FROM prompt_turns WHERE "ticketId" = $1',
      [(await ticketOf(server, s, '5511970000003')).id],
    );
    expect(turn.stopReason).toBe('transfer');
  });

  it('stops when an agent replies', async () => {
    const { s } = await aiScene();
    const c = customer(s, '5511970000004');
    await c.say('oi');
    await c.replies(1);
    const ticket = await ticketOf(server, s, '5511970000004');
    const acc = await server.request('PUT', `/tickets/${ticket.id}`, {
      token: s.admin.token,
      body: { status: 'open', userId: s.admin.user.id },
    });
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    const sent = await server.request('POST', `/messages/${ticket.id}`, {
      token: s.admin.token,
      body: { body: 'Sou a Ana, vou te ajudar.' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    await c.replies(1);
    await eventually(async () => {
      const [turn] = await server.app.ds.query(
        'SELECT "stoppedAt", "stopReason" FROM prompt_turns WHERE "ticketId" = $1',
        [ticket.id],
      );
      expect(turn.stopReason).toBe('agent');
    });
    const before = completions().length;
    await c.say('obrigado');
    await eventually(async () => {
      const rows = await server.app.ds.query(
        `SELECT 1 FROM messages WHERE "ticketId" = $1 AND body = 'obrigado'`,
        [ticket.id],
      );
      expect(rows).toHaveLength(1);
    });
    await sweepTurns(server.app);
    await runTurn(server.app, ticket.id);
    expect(completions().length).toBe(before);
    expect(await c.silence(PROMPT_QUIET_MS)).toEqual([]);
  });

  it('a failing AI never loses the message: the ticket falls back to its queue', async () => {
    const { s } = await aiScene();
    // The prompt now points at a server whose model answers garbage.
    const [{ id }] = await server.app.ds.query('SELECT id FROM prompts WHERE "companyId" = $1', [
      s.companyId,
    ]);
    await server.app.ds.query('UPDATE prompts SET "baseUrl" = $2 WHERE id = $1', [
      id,
      broken.baseUrl,
    ]);
    const c = customer(s, '5511970000005');
    await c.say('mensagem importante');
    await eventually(async () => {
      const t = await ticketOf(server, s, '5511970000005');
      expect(t.queueId).toBe(s.queues.Suporte);
      const [turn] = await server.app.ds.query(
        'SELECT "stopReason" FROM prompt_turns WHERE "ticketId" = $1',
        [t.id],
      );
      expect(turn.stopReason).toBe('failure');
    }, 15_000);
    const t = await ticketOf(server, s, '5511970000005');
    expect(t.status).toBe('pending');
    const kept = await server.app.ds.query(
      `SELECT body FROM messages WHERE "ticketId" = $1 AND NOT "fromMe"`,
      [t.id],
    );
    expect(kept).toEqual([{ body: 'mensagem importante' }]);
    expect(completions(broken).length).toBeGreaterThan(0);
  });

  it('hears audio (speech to text) and answers in a voice note (Ogg/Opus)', async () => {
    const { s } = await aiScene({ voice: 'pt-BR-FranciscaNeural' });
    const audio = execFileSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=300:duration=0.5',
        '-c:a',
        'libopus',
        '-f',
        'ogg',
        'pipe:1',
      ],
      { maxBuffer: 4 * 1024 * 1024 },
    );
    ai.knowAudio(audio, 'quero saber o preço');
    const c = customer(s, '5511970000006');
    await s.sim.inbound({
      whatsappId: s.whatsappId,
      from: '5511970000006',
      name: 'Cliente',
      media: { mimetype: 'audio/ogg; codecs=opus', base64: audio.toString('base64') },
    });
    const [reply] = await c.replies(1);
    expect(reply!.kind).toBe('media');
    expect(reply!.media?.voiceNote).toBe(true);
    const speech = ai.received
      .filter((r) => r.path === '/v1/audio/speech')
      .map(bodyOf)
      .at(-1);
    expect(speech.input).toBe('Você disse: quero saber o preço (2 mensagens)');
    expect(speech.voice).toBe('nova');
    expect(speech.response_format).toBe('opus');
    const [row] = await server.app.ds.query(
      'SELECT text FROM prompt_transcriptions WHERE "companyId" = $1',
      [s.companyId],
    );
    expect(row.text).toBe('quero saber o preço');
  });

  it('meters the tokens per company for the admin', async () => {
    const { s } = await aiScene();
    const c = customer(s, '5511970000007');
    await c.say('um dois três');
    await c.replies(1);
    const usage = await server.request('GET', '/prompt/usage', { token: s.admin.token });
    expect(usage.status).toBe(200);
    expect(usage.body.requests).toBe(1);
    expect(usage.body.totalTokens).toBeGreaterThan(0);
    expect(usage.body.prompts[0].name).toBe('Assistente');
    const other = await createCompanyWithAdmin(server);
    const theirs = await server.request('GET', '/prompt/usage', { token: other.admin.token });
    expect(theirs.body.requests).toBe(0);
  });
});

/** Longer than the debounce: what has not come by then will not come. */
const PROMPT_QUIET_MS = 3_500;

/** Retries an async assertion until it passes (a signal, polled), or throws its last failure. */
async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
