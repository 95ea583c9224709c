import { afterEach, describe, expect, it } from 'vitest';
import { TYPEBOT_DEFAULTS } from '@atende/shared';
import { createTypebotClient } from '../../src/modules/automation/clients/typebot.js';
import {
  DEFAULT_TYPEBOT_SETTINGS,
  answerFor,
  isExpired,
  keywordOf,
  renderAnswer,
  typebotTurn,
  type TypebotSession,
  type TypebotSettings,
} from '../../src/modules/automation/clients/typebot-flow.js';
import { startTypebotStandin, type Step } from '../standins/typebot.js';

const flow: Step[] = [
  { text: 'Olá! Sou o **assistente** da _Loja_. Veja [o site](https://loja.example.com).' },
  { image: 'https://cdn.example.com/logo.png' },
  { wait: 2 },
  { text: 'Escolha uma opção:' },
  { choice: ['Vendas', 'Suporte Técnico', 'Falar com atendente'], variable: 'setor' },
  { text: 'Você escolheu ~~nada~~ **{{setor}}**.' },
  { video: 'https://cdn.example.com/tour.mp4' },
  { video: 'https://youtu.be/abc', kind: 'youtube' },
  { audio: 'https://cdn.example.com/oi.ogg' },
  { embed: 'https://maps.example.com/loja' },
  { ask: 'pedido' },
  { text: 'Pedido {{pedido}} anotado.' },
  { text: '#{"queueId": 4}' },
];

const settings: TypebotSettings = {
  ...DEFAULT_TYPEBOT_SETTINGS,
  keywordFinish: '  Sair ',
  keywordRestart: 'Reiniciar',
  unknownMessage: 'Não entendi, responda com o número da opção.',
  restartMessage: 'Vamos recomeçar.',
};

const standins: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(standins.splice(0).map((s) => s.close()));
});

async function setup(steps: Step[] = flow, apiToken?: string) {
  const standin = await startTypebotStandin({ publicId: 'loja-bot', flow: steps, apiToken });
  standins.push(standin);
  const client = createTypebotClient({
    baseUrl: `${standin.url}/`,
    publicId: 'loja-bot',
    apiToken,
  });
  return { standin, client };
}

const t0 = new Date('2026-11-23T12:00:00Z');
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('Typebot: a whole flow against the stand-in', () => {
  it('opens, maps a typed choice, sends every bubble type in order with waits, and hands off', async () => {
    const { client, standin } = await setup();
    const opened = await typebotTurn(client, settings, null, 'oi', { now: t0 });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.value.items).toEqual([
      {
        kind: 'text',
        text: 'Olá! Sou o *assistente* da _Loja_. Veja o site (https://loja.example.com).',
        delayMs: 0,
      },
      { kind: 'media', media: 'image', url: 'https://cdn.example.com/logo.png', delayMs: 1000 },
      { kind: 'text', text: 'Escolha uma opção:', delayMs: 1000 + 2000 },
      {
        kind: 'text',
        text: '1 - Vendas\n2 - Suporte Técnico\n3 - Falar com atendente',
        delayMs: 1000,
      },
    ]);
    expect(opened.value.handOff).toBeNull();
    expect(opened.value.session?.input?.type).toBe('choice input');
    // The first message opens the flow; it is not sent as an answer.
    expect(JSON.parse(standin.received[0]!.body.toString())).toEqual({
      textBubbleContentFormat: 'markdown',
    });

    const chose = await typebotTurn(client, settings, opened.value.session, ' suporte tecnico ', {
      now: later(10),
    });
    expect(chose.ok).toBe(true);
    if (!chose.ok) return;
    expect(JSON.parse(standin.received[1]!.body.toString()).message).toEqual({
      type: 'text',
      text: 'Suporte Técnico',
    });
    expect(chose.value.items).toEqual([
      { kind: 'text', text: 'Você escolheu ~nada~ *Suporte Técnico*.', delayMs: 0 },
      { kind: 'media', media: 'video', url: 'https://cdn.example.com/tour.mp4', delayMs: 1000 },
      { kind: 'text', text: 'https://youtu.be/abc', delayMs: 1000 },
      { kind: 'media', media: 'audio', url: 'https://cdn.example.com/oi.ogg', delayMs: 1000 },
      { kind: 'text', text: 'https://maps.example.com/loja', delayMs: 1000 },
    ]);
    expect(chose.value.session?.input?.type).toBe('text input');

    const done = await typebotTurn(client, settings, chose.value.session, 'A-123', {
      now: later(20),
    });
    expect(done.ok && done.value).toEqual({
      items: [{ kind: 'text', text: 'Pedido A-123 anotado.', delayMs: 0 }],
      session: null,
      handOff: { reason: 'transfer', queueId: 4 },
      restarted: false,
    });
  });

  it('a choice by number; a flow that ends without input hands off as finished', async () => {
    const { client } = await setup([
      { choice: ['Sim', 'Não'], variable: 'ok' },
      { text: 'Obrigado, {{ok}}!' },
    ]);
    const opened = await typebotTurn(client, settings, null, 'oi', { now: t0 });
    expect(opened.ok && opened.value.items).toEqual([
      { kind: 'text', text: '1 - Sim\n2 - Não', delayMs: 0 },
    ]);
    const done = await typebotTurn(client, settings, opened.ok ? opened.value.session : null, '2', {
      now: later(5),
    });
    expect(done.ok && done.value).toMatchObject({
      items: [{ kind: 'text', text: 'Obrigado, Não!' }],
      session: null,
      handOff: { reason: 'finished' },
    });
  });

  it('an answer matching no item gets the unknown message and never reaches Typebot', async () => {
    const { client, standin } = await setup();
    const opened = await typebotTurn(client, settings, null, 'oi', { now: t0 });
    const session = opened.ok ? opened.value.session : null;
    const calls = standin.received.length;
    const wrong = await typebotTurn(client, settings, session, '7', { now: later(5) });
    expect(wrong.ok && wrong.value.items).toEqual([
      { kind: 'text', text: settings.unknownMessage, delayMs: 0 },
    ]);
    expect(wrong.ok && wrong.value.session?.sessionId).toBe(session?.sessionId);
    expect(standin.received.length).toBe(calls);
    // Without an unknown message the text goes as typed and Typebot asks again.
    const raw = await typebotTurn(client, { ...settings, unknownMessage: '' }, session, 'talvez', {
      now: later(6),
    });
    expect(raw.ok && raw.value.items[0]).toEqual({
      kind: 'text',
      text: 'Invalid message. Please, try again.',
      delayMs: 0,
    });
  });

  it.each([
    ['expired', (s: Awaited<ReturnType<typeof setup>>['standin']) => s.expireAll()],
    ['not found', (s: Awaited<ReturnType<typeof setup>>['standin']) => s.forgetAll()],
  ])('a session Typebot says is %s is restarted and the message replayed', async (_name, lose) => {
    const { client, standin } = await setup();
    const opened = await typebotTurn(client, settings, null, 'oi', { now: t0 });
    const old = opened.ok ? opened.value.session : null;
    lose(standin);
    const replayed = await typebotTurn(client, settings, old, '1', { now: later(30) });
    expect(replayed.ok).toBe(true);
    if (!replayed.ok) return;
    expect(replayed.value.restarted).toBe(true);
    expect(replayed.value.session?.sessionId).not.toBe(old?.sessionId);
    // The new flow's opening, then the answer to the replayed "1" (Vendas).
    expect(replayed.value.items.map((i) => (i.kind === 'text' ? i.text : i.url))).toEqual([
      'Olá! Sou o *assistente* da _Loja_. Veja o site (https://loja.example.com).',
      'https://cdn.example.com/logo.png',
      'Escolha uma opção:',
      '1 - Vendas\n2 - Suporte Técnico\n3 - Falar com atendente',
      'Você escolheu ~nada~ *Vendas*.',
      'https://cdn.example.com/tour.mp4',
      'https://youtu.be/abc',
      'https://cdn.example.com/oi.ogg',
      'https://maps.example.com/loja',
    ]);
    expect(replayed.value.items[4]!.delayMs).toBe(1000);
    const paths = standin.received.map((r) => r.path.replace(/sessions\/[^/]+/, 'sessions/:id'));
    expect(paths).toEqual([
      '/api/v1/typebots/loja-bot/startChat',
      '/api/v1/sessions/:id/continueChat',
      '/api/v1/typebots/loja-bot/startChat',
      '/api/v1/sessions/:id/continueChat',
    ]);
  });

  it('a session idle past `expires` starts over locally (the message opens the flow)', async () => {
    const { client, standin } = await setup();
    const opened = await typebotTurn(client, settings, null, 'oi', { now: t0 });
    const again = await typebotTurn(
      client,
      settings,
      opened.ok ? opened.value.session : null,
      '1',
      { now: later(61) },
    );
    expect(again.ok && again.value.restarted).toBe(false);
    expect(again.ok && again.value.items.at(-1)).toMatchObject({
      text: '1 - Vendas\n2 - Suporte Técnico\n3 - Falar com atendente',
    });
    expect(standin.received.map((r) => r.path)).toEqual([
      '/api/v1/typebots/loja-bot/startChat',
      '/api/v1/typebots/loja-bot/startChat',
    ]);
  });

  it('finish and restart keywords are checked first, trimmed and case-insensitive', async () => {
    const { client, standin } = await setup();
    const opened = await typebotTurn(client, settings, null, 'oi', { now: t0 });
    const session = opened.ok ? opened.value.session : null;
    const calls = standin.received.length;
    const finished = await typebotTurn(client, settings, session, '  SAIR  ', { now: later(1) });
    expect(finished.ok && finished.value).toEqual({
      items: [],
      session: null,
      handOff: { reason: 'keyword' },
      restarted: false,
    });
    expect(standin.received.length).toBe(calls);

    const restarted = await typebotTurn(client, settings, session, 'reiniciar', { now: later(2) });
    expect(restarted.ok && restarted.value.items.slice(0, 2)).toEqual([
      { kind: 'text', text: 'Vamos recomeçar.', delayMs: 0 },
      {
        kind: 'text',
        text: 'Olá! Sou o *assistente* da _Loja_. Veja o site (https://loja.example.com).',
        delayMs: 1000,
      },
    ]);
    expect(restarted.ok && restarted.value.session?.sessionId).not.toBe(session?.sessionId);
  });

  it('prefilled variables reach the new session', async () => {
    const { client, standin } = await setup([{ text: 'Oi, {{nome}}!' }, { ask: 'x' }]);
    const opened = await typebotTurn(client, settings, null, 'oi', {
      now: t0,
      variables: { nome: 'Maria' },
    });
    expect(opened.ok && opened.value.items).toEqual([
      { kind: 'text', text: 'Oi, Maria!', delayMs: 0 },
    ]);
    expect(JSON.parse(standin.received[0]!.body.toString()).prefilledVariables).toEqual({
      nome: 'Maria',
    });
  });

  it('a private bot: the token is sent; a wrong one is AUTH and never in the failure', async () => {
    const { standin } = await setup(flow, 'tb-secret-token-1234567890abcdef');
    const good = createTypebotClient({
      baseUrl: standin.url,
      publicId: 'loja-bot',
      apiToken: 'tb-secret-token-1234567890abcdef',
    });
    expect((await good.startChat()).ok).toBe(true);
    const badToken = 'tb-wrong-token-abcdef1234567890';
    const bad = await createTypebotClient({
      baseUrl: standin.url,
      publicId: 'loja-bot',
      apiToken: badToken,
    }).startChat();
    expect(!bad.ok && bad.code).toBe('ERR_INTEGRATION_AUTH');
    expect(JSON.stringify(bad)).not.toContain(badToken);
    const unknown = await createTypebotClient({
      baseUrl: standin.url,
      publicId: 'nope',
      apiToken: 'tb-secret-token-1234567890abcdef',
    }).startChat();
    expect(!unknown.ok && unknown.code).toBe('ERR_INTEGRATION_NOT_FOUND');
  });

  it('rich-text answers (older servers) convert too', async () => {
    const { standin } = await setup([{ text: 'linha 1\nlinha 2' }]);
    const res = await fetch(`${standin.url}/api/v1/typebots/loja-bot/startChat`, {
      method: 'POST',
      body: '{}',
    });
    const answer = (await res.json()) as any;
    expect(renderAnswer(answer, 1000).items).toEqual([
      { kind: 'text', text: 'linha 1\nlinha 2', delayMs: 0 },
    ]);
  });
});

describe('Typebot: pure rules', () => {
  it('spec defaults: delay 1000 ms, expires 1 minute', () => {
    expect(TYPEBOT_DEFAULTS).toEqual({ delayMessageMs: 1000, expiresMinutes: 1 });
    expect(DEFAULT_TYPEBOT_SETTINGS).toMatchObject({ delayMessageMs: 1000, expiresMinutes: 1 });
  });

  it('answerFor: number, words without case or accents, multiple choice, no match', () => {
    const input = {
      type: 'choice input',
      items: [{ content: 'Ação' }, { content: 'Dúvida Geral' }, { content: 'Outro' }],
    };
    expect(answerFor(input, '1')).toBe('Ação');
    expect(answerFor(input, ' ACAO ')).toBe('Ação');
    expect(answerFor(input, 'duvida   geral')).toBe('Dúvida Geral');
    expect(answerFor(input, '4')).toBeNull();
    expect(answerFor(input, '0')).toBeNull();
    expect(answerFor(input, 'acao, outro')).toBeNull();
    expect(answerFor({ ...input, options: { isMultipleChoice: true } }, '1, outro')).toBe(
      'Ação, Outro',
    );
    expect(answerFor({ type: 'text input' }, ' livre ')).toBe(' livre ');
    expect(answerFor(null, 'x')).toBe('x');
  });

  it('keywordOf: exact after trim, any case; empty keywords never match', () => {
    expect(keywordOf(' FIM ', { ...settings, keywordFinish: 'fim' })).toBe('finish');
    expect(keywordOf('fim do mundo', { ...settings, keywordFinish: 'fim' })).toBeNull();
    expect(keywordOf('', { ...settings, keywordFinish: '' })).toBeNull();
    expect(keywordOf('x', { ...settings, keywordFinish: ' ', keywordRestart: null })).toBeNull();
  });

  it('isExpired after `expires` minutes idle; 0 never expires', () => {
    const s: TypebotSession = { sessionId: 's', input: null, lastActivityAt: t0.toISOString() };
    expect(isExpired(s, later(60), 1)).toBe(false);
    expect(isExpired(s, later(61), 1)).toBe(true);
    expect(isExpired(s, later(86_400), 0)).toBe(false);
  });

  it('renderAnswer: a wait without a bubble comes first; a directive is not sent; unknown bubbles skipped', () => {
    const rendered = renderAnswer(
      {
        messages: [
          { id: 'a', type: 'text', content: { type: 'markdown', markdown: 'A' } },
          { id: 'x', type: 'custom-embed', content: {} },
          { id: 'd', type: 'text', content: { type: 'markdown', markdown: '#{"close": true}' } },
          { id: 'b', type: 'text', content: { type: 'markdown', markdown: 'B' } },
        ],
        clientSideActions: [
          { type: 'wait', wait: { secondsToWaitFor: '1.5' } },
          { type: 'wait', wait: { secondsToWaitFor: 3 }, lastBubbleBlockId: 'a' },
        ],
      },
      500,
    );
    expect(rendered).toEqual({
      items: [
        { kind: 'text', text: 'A', delayMs: 1500 },
        { kind: 'text', text: 'B', delayMs: 3500 },
      ],
      directive: { type: 'close' },
    });
  });
});
