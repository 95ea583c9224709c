import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/modules/automation/clients/http.js';
import { createOpenAiClient } from '../../src/modules/automation/clients/openai.js';
import { buildHistory } from '../../src/modules/automation/clients/openai-history.js';
import { startOpenAiStandin } from '../standins/openai.js';
import { startStandin } from '../standins/server.js';

const run = promisify(execFile);
const KEY = 'sk-test-4f9a2c7e1b8d4a6f9e3c5b7a1d2e4f6a';
const queues = [
  { id: 7, name: 'Suporte' },
  { id: 9, name: 'Vendas' },
];

let standin: Awaited<ReturnType<typeof startOpenAiStandin>>;
beforeAll(async () => {
  standin = await startOpenAiStandin({ apiKey: KEY, models: ['gpt-test'] });
});
afterAll(() => standin.close());

const client = (over: Partial<Parameters<typeof createOpenAiClient>[0]> = {}) =>
  createOpenAiClient({ baseUrl: standin.baseUrl, apiKey: KEY, model: 'gpt-test', ...over });

const turns = (text: string) =>
  buildHistory({
    systemPrompt: 'Você atende a loja.',
    messages: [
      { id: 1, fromMe: true, body: 'Olá!', mediaType: 'chat', createdAt: '2026-01-01T10:00:00Z' },
    ],
    current: {
      id: 2,
      fromMe: false,
      body: text,
      mediaType: 'chat',
      createdAt: '2026-01-01T10:01:00Z',
    },
    maxMessages: 10,
  });

describe('OpenAI-compatible client: chat completions', () => {
  it('sends the history and the strict schema, and parses reply, action and usage', async () => {
    const result = await client().complete({
      turns: turns('Qual o horário?'),
      maxTokens: 100,
      temperature: 1,
      queues,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        answer: { reply: 'Você disse: Qual o horário? (3 mensagens)', action: { type: 'none' } },
        usage: { promptTokens: 8, completionTokens: 7, totalTokens: 15 },
        model: 'gpt-test',
      },
    });
    const sent = JSON.parse(standin.received.at(-1)!.body.toString());
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Você atende a loja.' },
      { role: 'assistant', content: 'Olá!' },
      { role: 'user', content: 'Qual o horário?' },
    ]);
    expect(sent.max_completion_tokens).toBe(100);
    expect(sent.temperature).toBe(1);
    expect(
      sent.response_format.json_schema.schema.properties.action.anyOf[1].properties.queueId.enum,
    ).toEqual([7, 9]);
  });

  it('a transfer names an offered queue; close ends; without queues there is no transfer', async () => {
    const transfer = await client().complete({
      turns: turns('quero um atendente'),
      maxTokens: 100,
      temperature: 1,
      queues,
    });
    expect(transfer.ok && transfer.value.answer.action).toEqual({ type: 'transfer', queueId: 7 });
    const close = await client().complete({
      turns: turns('tchau'),
      maxTokens: 100,
      temperature: 1,
      queues,
    });
    expect(close.ok && close.value.answer.action).toEqual({ type: 'close' });
    const none = await client().complete({
      turns: turns('quero um atendente'),
      maxTokens: 100,
      temperature: 1,
      queues: [],
    });
    expect(none.ok && none.value.answer.action).toEqual({ type: 'none' });
  });

  it('max_tokens for servers that know only that field', async () => {
    await client({ tokenLimitField: 'max_tokens' }).complete({
      turns: turns('oi'),
      maxTokens: 42,
      temperature: 0.5,
      queues,
    });
    const sent = JSON.parse(standin.received.at(-1)!.body.toString());
    expect(sent.max_tokens).toBe(42);
    expect(sent.max_completion_tokens).toBeUndefined();
  });

  it('a server without usage answers usage null', async () => {
    const bare = await startOpenAiStandin({ apiKey: KEY, omitUsage: true });
    try {
      const result = await createOpenAiClient({
        baseUrl: bare.baseUrl,
        apiKey: KEY,
        model: 'gpt-test',
      }).complete({
        turns: turns('oi'),
        maxTokens: 100,
        temperature: 1,
        queues,
      });
      expect(result.ok && result.value.usage).toBeNull();
    } finally {
      await bare.close();
    }
  });

  it.each([
    ['not JSON', 'Claro! Posso ajudar.', /not JSON/],
    [
      'off schema',
      JSON.stringify({ reply: 'oi', action: { type: 'escalate' } }),
      /does not fit the schema \(action/,
    ],
    [
      'unoffered queue',
      JSON.stringify({ reply: 'oi', action: { type: 'transfer', queueId: 99 } }),
      /queue 99/,
    ],
    ['no content', null, /no content/],
    ['refusal', { refusal: 'I cannot help with that.' }, /refused/],
    ['cut by maxTokens', { truncated: '{"reply": "Olá, tudo b' }, /cut at 100 tokens/],
  ] as const)(
    'a malformed answer (%s) is a typed BAD_ANSWER failure',
    async (_name, content, message) => {
      const odd = await startOpenAiStandin({ apiKey: KEY, content: () => content as any });
      try {
        const result = await createOpenAiClient({
          baseUrl: odd.baseUrl,
          apiKey: KEY,
          model: 'gpt-test',
        }).complete({
          turns: turns('oi'),
          maxTokens: 100,
          temperature: 1,
          queues,
        });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.code).toBe('ERR_INTEGRATION_BAD_ANSWER');
        expect(result.service).toBe('openai');
        expect(result.message).toMatch(message);
      } finally {
        await odd.close();
      }
    },
  );
});

describe('OpenAI-compatible client: errors never carry the key', () => {
  it('a bad key is ERR_INTEGRATION_AUTH, and the echoed key is not in the failure', async () => {
    const wrong = 'sk-wrong-9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a';
    const result = await client({ apiKey: wrong }).complete({
      turns: turns('oi'),
      maxTokens: 100,
      temperature: 1,
      queues,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('ERR_INTEGRATION_AUTH');
    expect(result.status).toBe(401);
    expect(result.message).toContain('Incorrect API key provided');
    expect(JSON.stringify(result)).not.toContain(wrong);
    expect(JSON.stringify(result)).not.toContain(wrong.slice(0, 8));
    // The stand-in really did echo it: the redaction, not luck, keeps it out.
    const answered = await fetch(`${standin.baseUrl}/models`, {
      headers: { authorization: `Bearer ${wrong}` },
    });
    expect(await answered.text()).toContain(wrong);
  });

  it('check(): bad key AUTH, unknown model NOT_FOUND, good pair ok', async () => {
    expect(await client().check()).toEqual({ ok: true, value: undefined });
    const unknown = await client({ model: 'gpt-nope' }).check();
    expect(!unknown.ok && unknown.code).toBe('ERR_INTEGRATION_NOT_FOUND');
    const bad = await client({ apiKey: 'sk-bad-00000000000000000000000000' }).check();
    expect(!bad.ok && bad.code).toBe('ERR_INTEGRATION_AUTH');
  });

  it('a server that never answers is ERR_INTEGRATION_TIMEOUT', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const silent = await startStandin(async () => {
      await held;
      return { status: 200, body: {} };
    });
    try {
      const result = await createOpenAiClient({
        baseUrl: silent.url,
        apiKey: KEY,
        model: 'm',
        timeoutMs: 200,
      }).complete({
        turns: turns('oi'),
        maxTokens: 10,
        temperature: 1,
        queues,
      });
      expect(!result.ok && result.code).toBe('ERR_INTEGRATION_TIMEOUT');
      expect(JSON.stringify(result)).not.toContain(KEY);
    } finally {
      release();
      await silent.close();
    }
  });

  it('a closed port is ERR_INTEGRATION_UNREACHABLE; 429 carries Retry-After; 500 UNAVAILABLE', async () => {
    const gone = await startStandin(() => ({ status: 200 }));
    const goneUrl = gone.url;
    await gone.close();
    const unreachable = await createOpenAiClient({
      baseUrl: goneUrl,
      apiKey: KEY,
      model: 'm',
    }).check();
    expect(!unreachable.ok && unreachable.code).toBe('ERR_INTEGRATION_UNREACHABLE');

    const limited = await startStandin(() => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { message: 'You exceeded your current quota' } },
    }));
    const failing = await startStandin(() => ({
      status: 500,
      body: { error: { message: 'boom' } },
    }));
    try {
      const r429 = await createOpenAiClient({
        baseUrl: limited.url,
        apiKey: KEY,
        model: 'm',
      }).check();
      expect(r429).toMatchObject({
        ok: false,
        code: 'ERR_INTEGRATION_RATE_LIMITED',
        status: 429,
        retryAfterMs: 7000,
      });
      const r500 = await createOpenAiClient({
        baseUrl: failing.url,
        apiKey: KEY,
        model: 'm',
      }).check();
      expect(r500).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_UNAVAILABLE', status: 500 });
    } finally {
      await limited.close();
      await failing.close();
    }
  });

  it('an answer over 16 MB is refused, declared or streamed', async () => {
    const big = await startStandin(() => ({
      status: 200,
      body: Buffer.alloc(MAX_ANSWER_BYTES + 1),
    }));
    const streaming = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 32);
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_ANSWER_BYTES && res.write(chunk)) sent += chunk.length;
        if (sent <= MAX_ANSWER_BYTES) res.once('drain', pump);
        else res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => streaming.listen(0, '127.0.0.1', resolve));
    const streamingUrl = `http://127.0.0.1:${(streaming.address() as AddressInfo).port}`;
    try {
      for (const url of [big.url, streamingUrl]) {
        const result = await createOpenAiClient({ baseUrl: url, apiKey: KEY, model: 'm' }).check();
        expect(result).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_BAD_ANSWER' });
        expect(!result.ok && result.message).toMatch(/answer over 16777216 bytes/);
      }
    } finally {
      await big.close();
      streaming.closeAllConnections();
      await new Promise<void>((resolve) => streaming.close(() => resolve()));
    }
  });

  it('a redirect is refused, not followed', async () => {
    const target = await startOpenAiStandin({ apiKey: KEY });
    const redirecting = await startStandin(() => ({
      status: 307,
      headers: { location: `${target.baseUrl}/models` },
    }));
    try {
      const result = await createOpenAiClient({
        baseUrl: redirecting.url,
        apiKey: KEY,
        model: 'gpt-test',
      }).check();
      expect(!result.ok && result.code).toBe('ERR_INTEGRATION_UNREACHABLE');
      expect(!result.ok && result.message).toMatch(/redirect refused/);
      expect(target.received).toHaveLength(0);
    } finally {
      await redirecting.close();
      await target.close();
    }
  });
});

describe('OpenAI-compatible client: audio', () => {
  it('transcribes a voice note sent as multipart', async () => {
    const { stdout } = await run(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=300:duration=0.4',
        '-c:a',
        'libopus',
        '-f',
        'ogg',
        'pipe:1',
      ],
      { encoding: 'buffer' },
    );
    standin.knowAudio(stdout, 'quero saber do meu pedido');
    const result = await client().transcribe({
      audio: stdout,
      fileName: 'nota.ogg',
      mimeType: 'audio/ogg',
      language: 'pt',
    });
    expect(result).toEqual({ ok: true, value: 'quero saber do meu pedido' });
    const form = await new Response(new Uint8Array(standin.received.at(-1)!.body), {
      headers: { 'content-type': String(standin.received.at(-1)!.headers['content-type']) },
    }).formData();
    expect(form.get('model')).toBe('whisper-1');
    expect(form.get('language')).toBe('pt');
    expect((form.get('file') as File).name).toBe('nota.ogg');
  });

  it('unknown audio is the server refusing it (REJECTED)', async () => {
    const result = await client().transcribe({
      audio: new Uint8Array([1, 2, 3]),
      fileName: 'x.ogg',
      mimeType: 'audio/ogg',
    });
    expect(!result.ok && result.code).toBe('ERR_INTEGRATION_REJECTED');
  });

  it('speech asks for opus and answers Ogg/Opus bytes ffprobe reads as opus', async () => {
    const result = await client().speak('Seu pedido saiu para entrega.', 'nova');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.mimeType).toBe('audio/ogg; codecs=opus');
    const sent = JSON.parse(standin.received.at(-1)!.body.toString());
    expect(sent).toMatchObject({ response_format: 'opus', voice: 'nova', model: 'tts-1' });
    const probe = await new Promise<string>((resolve, reject) => {
      const child = execFile(
        'ffprobe',
        ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', '-i', 'pipe:0'],
        (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
      );
      child.stdin!.end(result.value.audio);
    });
    expect(probe).toBe('opus');
  });

  it('a server that answers speech in another format (MP3) is BAD_ANSWER, not a broken voice note', async () => {
    const mp3 = await startOpenAiStandin({ apiKey: KEY, speechAlwaysMp3: true });
    try {
      const result = await createOpenAiClient({
        baseUrl: mp3.baseUrl,
        apiKey: KEY,
        model: 'gpt-test',
      }).speak('Olá', 'nova');
      expect(result).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_BAD_ANSWER' });
      expect(!result.ok && result.message).toMatch(/not Ogg/);
    } finally {
      await mp3.close();
    }
  });

  it('speech over 4096 characters is refused before any call', async () => {
    const before = standin.received.length;
    const result = await client().speak('a'.repeat(4097), 'nova');
    expect(!result.ok && result.code).toBe('ERR_INTEGRATION_REJECTED');
    expect(standin.received.length).toBe(before);
  });
});
