import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDialogflowClient,
  parseServiceAccount,
} from '../../src/modules/automation/clients/dialogflow.js';
import { createOpenAiClient } from '../../src/modules/automation/clients/openai.js';
import { createTypebotClient } from '../../src/modules/automation/clients/typebot.js';
import {
  buildWebhookPayload,
  deliverWebhook,
  generateWebhookSecret,
} from '../../src/modules/automation/clients/webhook.js';
import { startDialogflowStandin } from '../standins/dialogflow.js';
import { startStandin, type Standin } from '../standins/server.js';

/**
 * A hostile (or careless) server that answers every request with an error quoting the whole
 * request back: its headers and its body. Whatever a client sent, a key included, would be in
 * the provider's message; the client's failure must still carry none of it.
 */
let echo: Standin;
beforeAll(async () => {
  echo = await startStandin((request) => ({
    status: 400,
    body: {
      error: {
        message:
          `${request.path} ${JSON.stringify(request.headers)} ${request.body.toString('utf8')}`.slice(
            0,
            190,
          ),
      },
    },
  }));
});
afterAll(() => echo.close());

const expectClean = (failure: unknown, secrets: string[]) => {
  const text = JSON.stringify(failure);
  for (const s of secrets) {
    expect(text).not.toContain(s);
    expect(text).not.toContain(s.slice(0, 8));
  }
};

describe('no client failure carries a credential', () => {
  it('OpenAI: the key echoed back in the error is redacted', async () => {
    const key = 'sk-proj-7c1e9a3f5b2d4e6a8c0b1d3f5a7e9c2b';
    const result = await createOpenAiClient({ baseUrl: echo.url, apiKey: key, model: 'm' }).check();
    expect(result).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_REJECTED' });
    expect((result as { message: string }).message).toContain('[redacted]');
    expectClean(result, [key]);
  });

  it('Typebot: the bearer token echoed back is redacted', async () => {
    const token = 'tbt_3f9a1c7e5b2d4a6c8e0f1a3b5c7d9e1f';
    const result = await createTypebotClient({
      baseUrl: echo.url,
      publicId: 'bot',
      apiToken: token,
    }).startChat();
    expect(result).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_REJECTED' });
    expectClean(result, [token]);
  });

  it('Dialogflow: neither the signed assertion nor the access token survives', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const json = JSON.stringify({
      type: 'service_account',
      project_id: 'projeto-teste-1',
      private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'a@projeto-teste-1.iam.gserviceaccount.com',
    });
    const account = parseServiceAccount(json);
    if (!account.ok) throw new Error(account.message);
    // The token endpoint echoes the assertion it was sent.
    const atToken = await createDialogflowClient({
      serviceAccount: account.value,
      language: 'pt-BR',
      apiBaseUrl: echo.url,
      tokenUri: `${echo.url}/token`,
    }).detectIntent('s', 'oi');
    expect(atToken).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_AUTH' });
    expect(JSON.stringify(atToken)).not.toMatch(/eyJ[\w-]{8,}/);
    // A real token endpoint, then an API that echoes the bearer token.
    const google = await startDialogflowStandin({
      projectId: 'projeto-teste-1',
      clientEmail: 'a@projeto-teste-1.iam.gserviceaccount.com',
      publicKey: pair.publicKey,
      intents: [],
    });
    try {
      const atApi = await createDialogflowClient({
        serviceAccount: account.value,
        language: 'pt-BR',
        apiBaseUrl: echo.url,
        tokenUri: google.tokenUri,
      }).detectIntent('s', 'oi');
      expect(atApi).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_REJECTED' });
      expectClean(atApi, [...google.tokens.keys()]);
    } finally {
      await google.close();
    }
  });

  it('Webhook: the secret is never sent, and the URL path (an n8n token) is not in the failure', async () => {
    const secret = generateWebhookSecret();
    const url = `${echo.url}/webhook/4e1f0a9c-secret-path`;
    const payload = buildWebhookPayload({
      deliveryId: 'msg_1',
      occurredAt: new Date(),
      companyId: 1,
      integrationId: 1,
      ticket: { id: 1, uuid: 'u', status: 'open', queueId: null, userId: null, whatsappId: null },
      contact: { id: 1, name: 'n', number: '1' },
      message: {
        id: 1,
        wid: 'w',
        fromMe: false,
        body: 'oi',
        mediaType: 'chat',
        mediaUrl: null,
        createdAt: new Date(),
      },
    });
    const result = await deliverWebhook({ url, secret, payload, expectReply: false });
    expect(result).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_REJECTED' });
    expectClean(result, [secret, '4e1f0a9c-secret-path']);
    expect(JSON.stringify(echo.received.at(-1)!.headers)).not.toContain(secret);
    expect(echo.received.at(-1)!.body.toString()).not.toContain(secret);
  });
});

describe('redact', () => {
  it('whole secrets, the start of key-like ones, never the origin of a URL secret', async () => {
    const { redact } = await import('../../src/modules/automation/clients/result.js');
    expect(redact('key sk-abcdefgh12345678 and sk-abcdef**5678', ['sk-abcdefgh12345678'])).toBe(
      'key [redacted] and [redacted]f**5678',
    );
    expect(
      redact('http://127.0.0.1:9/hook answered', ['http://127.0.0.1:9/hook/x', '/hook/x']),
    ).toBe('http://127.0.0.1:9/hook answered');
    expect(redact('abc', ['abc'])).toBe('abc');
  });
});
