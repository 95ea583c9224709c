import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createDialogflowClient,
  parseServiceAccount,
  readDetectAnswer,
  type ServiceAccount,
} from '../../src/modules/automation/clients/dialogflow.js';
import { startDialogflowStandin, type StandinIntent } from '../standins/dialogflow.js';

const intents: StandinIntent[] = [
  {
    displayName: 'horario',
    phrases: ['horário', 'horas'],
    messages: [
      { text: { text: ['Abrimos às 8h.', 'Fechamos às 18h.'] } },
      { platform: 'TELEGRAM', text: { text: ['(telegram)'] } },
    ],
  },
  {
    displayName: 'humano',
    phrases: ['atendente'],
    messages: [
      { text: { text: ['Vou chamar alguém.'] } },
      { payload: { handoff: { queueId: 5 } } },
    ],
  },
  {
    displayName: 'humano-sem-fila',
    phrases: ['pessoa'],
    messages: [{ payload: { handoff: true } }],
  },
  { displayName: 'encerrar', phrases: ['encerrar'], messages: [{ payload: { close: true } }] },
  {
    displayName: 'tchau',
    phrases: ['tchau'],
    messages: [{ text: { text: ['Até logo!'] } }],
    endInteraction: true,
  },
];

let keys: { privatePem: string; publicKey: KeyObject; otherPem: string };
beforeAll(() => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  keys = {
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: pair.publicKey,
    otherPem: other.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
});

const accountJson = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'loja-agente-123',
    private_key_id: 'k1',
    private_key: keys.privatePem,
    client_email: 'bot@loja-agente-123.iam.gserviceaccount.com',
    client_id: '1',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...over,
  });

const standins: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(standins.splice(0).map((s) => s.close()));
});

async function setup(
  over: {
    tokenLifetimeS?: number;
    apiDisabled?: boolean;
    json?: string;
    language?: 'pt-BR' | 'en' | 'es';
  } = {},
) {
  const standin = await startDialogflowStandin({
    projectId: 'loja-agente-123',
    clientEmail: 'bot@loja-agente-123.iam.gserviceaccount.com',
    publicKey: keys.publicKey,
    intents,
    tokenLifetimeS: over.tokenLifetimeS,
    apiDisabled: over.apiDisabled,
  });
  standins.push(standin);
  const account = parseServiceAccount(over.json ?? accountJson());
  if (!account.ok) throw new Error(account.message);
  const client = createDialogflowClient({
    serviceAccount: account.value,
    language: over.language ?? 'pt-BR',
    apiBaseUrl: standin.url,
    tokenUri: standin.tokenUri,
  });
  return { standin, client, account: account.value };
}

describe('Dialogflow ES: service account', () => {
  it('reads project_id, client_email and the RSA key from the JSON', () => {
    const parsed = parseServiceAccount(accountJson());
    expect(parsed.ok).toBe(true);
    const account = parsed.ok ? (parsed.value as ServiceAccount) : null;
    expect(account).toMatchObject({
      projectId: 'loja-agente-123',
      clientEmail: 'bot@loja-agente-123.iam.gserviceaccount.com',
      privateKeyId: 'k1',
      tokenUri: 'https://oauth2.googleapis.com/token',
    });
  });

  it.each([
    ['not JSON', '{', /not valid JSON/],
    ['no project_id', () => accountJson({ project_id: undefined }), /project_id/],
    ['wrong type', () => accountJson({ type: 'authorized_user' }), /type/],
    ['bad e-mail', () => accountJson({ client_email: 'nobody' }), /client_email/],
    [
      'unreadable key',
      () =>
        accountJson({
          private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
        }),
      /not a readable PEM/,
    ],
    [
      'http token_uri',
      () => accountJson({ token_uri: 'http://169.254.169.254/token' }),
      /token_uri/,
    ],
  ] as const)(
    'a malformed JSON (%s) is CREDENTIALS_INVALID without the key in the message',
    (_n, json, why) => {
      const result = parseServiceAccount(typeof json === 'function' ? json() : json);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.code).toBe('ERR_INTEGRATION_CREDENTIALS_INVALID');
      expect(result.message).toMatch(why);
      expect(result.message).not.toContain('PRIVATE KEY');
    },
  );
});

describe('Dialogflow ES: token and detectIntent against the stand-in', () => {
  it('a signed JWT the stand-in verifies, fulfillment texts in order, default platform only', async () => {
    const { client, standin } = await setup();
    const result = await client.detectIntent('ticket-42', 'Qual o horário de vocês?');
    expect(result).toEqual({
      ok: true,
      value: {
        texts: ['Abrimos às 8h.', 'Fechamos às 18h.'],
        handOff: null,
        intent: 'horario',
        confidence: 0.9,
      },
    });
    expect(standin.exchanges).toHaveLength(1);
    expect(standin.exchanges[0]!.header).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'k1' });
    expect(standin.exchanges[0]!.claims).toMatchObject({
      iss: 'bot@loja-agente-123.iam.gserviceaccount.com',
      aud: standin.tokenUri,
      scope: 'https://www.googleapis.com/auth/dialogflow',
    });
    const detect = standin.received.find((r) => r.path.includes(':detectIntent'))!;
    expect(detect.path).toBe('/v2/projects/loja-agente-123/agent/sessions/ticket-42:detectIntent');
    expect(JSON.parse(detect.body.toString())).toEqual({
      queryInput: { text: { text: 'Qual o horário de vocês?', languageCode: 'pt-BR' } },
    });
  });

  it.each(['pt-BR', 'en', 'es'] as const)(
    'the language %s goes as languageCode',
    async (language) => {
      const { client } = await setup({ language });
      const result = await client.detectIntent('s1', 'xyz');
      expect(result.ok && result.value.texts).toEqual([`[${language}] Não entendi.`]);
    },
  );

  it('the token is cached until shortly before it expires', async () => {
    const long = await setup();
    await long.client.detectIntent('s', 'horas');
    await long.client.detectIntent('s', 'horas');
    await Promise.all([
      long.client.detectIntent('s', 'horas'),
      long.client.detectIntent('s', 'horas'),
    ]);
    expect(long.standin.exchanges).toHaveLength(1);
    // A token that lives less than the renewal margin is exchanged again for every call.
    const short = await setup({ tokenLifetimeS: 30 });
    await short.client.detectIntent('s', 'horas');
    await short.client.detectIntent('s', 'horas');
    expect(short.standin.exchanges).toHaveLength(2);
  });

  it('hand-off: a custom payload (with or without queue), close, or the end of the conversation', async () => {
    const { client } = await setup();
    expect(await client.detectIntent('s', 'quero um atendente')).toMatchObject({
      ok: true,
      value: { texts: ['Vou chamar alguém.'], handOff: { reason: 'transfer', queueId: 5 } },
    });
    expect(await client.detectIntent('s', 'uma pessoa')).toMatchObject({
      ok: true,
      value: { texts: [], handOff: { reason: 'transfer', queueId: null } },
    });
    expect(await client.detectIntent('s', 'encerrar')).toMatchObject({
      ok: true,
      value: { handOff: { reason: 'close' } },
    });
    expect(await client.detectIntent('s', 'tchau')).toMatchObject({
      ok: true,
      value: { texts: ['Até logo!'], handOff: { reason: 'end' } },
    });
  });

  it('a key that is not the account’s is AUTH (invalid_grant); the assertion is not in the failure', async () => {
    const { client } = await setup({ json: accountJson({ private_key: keys.otherPem }) });
    const result = await client.detectIntent('s', 'horas');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('ERR_INTEGRATION_AUTH');
    expect(result.message).toContain('Invalid JWT Signature');
    expect(result.message).not.toMatch(/eyJ/);
  });

  it('another project is FORBIDDEN; an API turned off too, with its message', async () => {
    const wrong = await setup({ json: accountJson({ project_id: 'outro-projeto-9' }) });
    const denied = await wrong.client.detectIntent('s', 'horas');
    expect(denied).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_FORBIDDEN', status: 403 });
    const off = await setup({ apiDisabled: true });
    const disabled = await off.client.check();
    expect(disabled).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_FORBIDDEN' });
    expect(!disabled.ok && disabled.message).toMatch(
      /has not been used in project .* or it is disabled/,
    );
  });

  it('a token revoked early (401) is dropped and the next call exchanges a new one', async () => {
    const { client, standin } = await setup();
    await client.detectIntent('s', 'horas');
    standin.tokens.clear();
    const refused = await client.detectIntent('s', 'horas');
    expect(refused).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_AUTH' });
    expect(JSON.stringify(refused)).not.toContain('ya29.');
    expect((await client.detectIntent('s', 'horas')).ok).toBe(true);
    expect(standin.exchanges).toHaveLength(2);
  });

  it('readDetectAnswer falls back to fulfillmentText when there are no text messages', () => {
    expect(
      readDetectAnswer({ queryResult: { fulfillmentText: 'Oi!', fulfillmentMessages: [] } }),
    ).toEqual({
      texts: ['Oi!'],
      handOff: null,
      intent: null,
      confidence: null,
    });
  });
});
