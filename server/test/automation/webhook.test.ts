import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookPayloadSchema } from '@atende/shared';
import {
  WEBHOOK_RETRY_SCHEDULE_MS,
  buildWebhookPayload,
  deliverWebhook,
  generateWebhookSecret,
  newDeliveryId,
  nextRetryDelayMs,
  parseWebhookReply,
  signWebhook,
  verifyWebhook,
  webhookKey,
  type PayloadSource,
} from '../../src/modules/automation/clients/webhook.js';
import type { ClientFailure } from '../../src/modules/automation/clients/result.js';
import { startWebhookReceiver } from '../standins/webhook.js';

const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const source = (over: Partial<PayloadSource> = {}): PayloadSource => ({
  deliveryId: 'msg_2f9c1e',
  occurredAt: new Date('2026-11-23T12:00:00Z'),
  companyId: 3,
  integrationId: 8,
  ticket: {
    id: 41,
    uuid: '5b0c7f3e-8a1d-4c2b-9e6f-1a2b3c4d5e6f',
    status: 'pending',
    queueId: 2,
    userId: null,
    whatsappId: 1,
  },
  contact: { id: 17, name: 'Maria', number: '5511988887777', email: null },
  message: {
    id: 900,
    wid: '3EB0ABC',
    fromMe: false,
    body: 'Quero o boleto',
    mediaType: 'chat',
    mediaUrl: null,
    createdAt: new Date('2026-11-23T11:59:59Z'),
  },
  ...over,
});

describe('webhook payload', () => {
  it('version 1, chatInput and sessionId for n8n, the documented fields only', () => {
    const payload = buildWebhookPayload(source());
    expect(payload).toEqual({
      version: 1,
      event: 'message.received',
      id: 'msg_2f9c1e',
      occurredAt: '2026-11-23T12:00:00.000Z',
      companyId: 3,
      integrationId: 8,
      sessionId: '5b0c7f3e-8a1d-4c2b-9e6f-1a2b3c4d5e6f',
      chatInput: 'Quero o boleto',
      ticket: {
        id: 41,
        uuid: '5b0c7f3e-8a1d-4c2b-9e6f-1a2b3c4d5e6f',
        status: 'pending',
        queueId: 2,
        userId: null,
        whatsappId: 1,
      },
      contact: { id: 17, name: 'Maria', number: '5511988887777', email: '' },
      message: {
        id: 900,
        wid: '3EB0ABC',
        fromMe: false,
        body: 'Quero o boleto',
        mediaType: 'chat',
        mediaUrl: null,
        createdAt: '2026-11-23T11:59:59.000Z',
      },
    });
  });

  it('whatever else the source carries (a token, a raw library object) never reaches it', () => {
    const leaky = source() as any;
    leaky.integration = { urlN8N: 'https://n8n.example/webhook/abc', secret: 'whsec_leak' };
    leaky.ticket = { ...leaky.ticket, whatsapp: { token: 'api-token-leak' } };
    leaky.contact = { ...leaky.contact, raw: { key: 'baileys-object' } };
    const text = JSON.stringify(buildWebhookPayload(leaky));
    expect(text).not.toMatch(/leak|baileys|secret|token/);
  });

  it('a media message without caption has its type as chatInput', () => {
    const payload = buildWebhookPayload(
      source({
        message: { ...source().message, body: '', mediaType: 'audio', mediaUrl: 'https://x/y.ogg' },
      }),
    );
    expect(payload.chatInput).toBe('[audio]');
    expect(webhookPayloadSchema.parse(payload)).toEqual(payload);
  });
});

describe('Standard Webhooks signing', () => {
  it('matches the specification’s published test vector', () => {
    const key = webhookKey('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(key.ok).toBe(true);
    if (!key.ok) return;
    const headers = signWebhook(
      key.value,
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('verify: right secret ok; tampered body, other secret, stale timestamp, no headers refused', () => {
    const secret = generateWebhookSecret();
    const key = webhookKey(secret);
    if (!key.ok) throw new Error('secret');
    const now = 1_800_000_000;
    const body = '{"a":1}';
    const headers = signWebhook(key.value, 'msg_1', now, body);
    expect(verifyWebhook([secret], headers, body, { nowS: now + 10 })).toEqual({ ok: true });
    expect(verifyWebhook([generateWebhookSecret(), secret], headers, body, { nowS: now })).toEqual({
      ok: true,
    });
    expect(verifyWebhook([secret], headers, '{"a":2}', { nowS: now })).toEqual({
      ok: false,
      error: 'no matching signature',
    });
    expect(verifyWebhook([generateWebhookSecret()], headers, body, { nowS: now })).toEqual({
      ok: false,
      error: 'no matching signature',
    });
    expect(verifyWebhook([secret], headers, body, { nowS: now + 301 })).toEqual({
      ok: false,
      error: 'timestamp out of tolerance',
    });
    expect(
      verifyWebhook([secret], { ...headers, 'webhook-id': undefined }, body, { nowS: now }),
    ).toEqual({ ok: false, error: 'missing headers' });
    // Several signatures in one header (a rotation on the sender's side): any v1 match is enough.
    const multi = { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` };
    expect(verifyWebhook([secret], multi, body, { nowS: now })).toEqual({ ok: true });
  });

  it('secrets: whsec_ and 24 to 64 bytes; a bad one is CREDENTIALS_INVALID without itself in the message', () => {
    expect(generateWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    for (const bad of [
      '',
      'abc',
      'whsec_',
      'whsec_c2hvcnQ=',
      `whsec_${Buffer.alloc(65).toString('base64')}`,
      'whsec_!!!notbase64!!!',
    ]) {
      const result = webhookKey(bad);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.code).toBe('ERR_INTEGRATION_CREDENTIALS_INVALID');
        if (bad.length >= 4) expect(result.message).not.toContain(bad);
      }
    }
  });
});

describe('delivery to a receiver that verifies', () => {
  it('signed, accepted once; the body is the exact bytes signed', async () => {
    const secret = generateWebhookSecret();
    const receiver = await startWebhookReceiver({ secrets: [secret] });
    receivers.push(receiver);
    const payload = buildWebhookPayload(source({ deliveryId: newDeliveryId() }));
    const result = await deliverWebhook({ url: receiver.url, secret, payload, expectReply: false });
    expect(result).toEqual({ ok: true, value: { status: 204, reply: null } });
    expect(receiver.accepted).toHaveLength(1);
    expect(receiver.accepted[0]!.payload).toEqual(payload);
    expect(receiver.accepted[0]!.headers['user-agent']).toBe('Atende-Webhooks/1');
    // Checked by hand too, not only by our own verifier.
    const h = receiver.accepted[0]!.headers;
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`${h['webhook-id']}.${h['webhook-timestamp']}.${JSON.stringify(payload)}`)
      .digest('base64');
    expect(h['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('a wrong secret is refused by the receiver: AUTH, and neither secret nor URL path in the failure', async () => {
    const receiver = await startWebhookReceiver({
      secrets: [generateWebhookSecret()],
      path: '/webhook/8c1f-secret-path',
    });
    receivers.push(receiver);
    const mine = generateWebhookSecret();
    const result = await deliverWebhook({
      url: receiver.url,
      secret: mine,
      payload: buildWebhookPayload(source()),
      expectReply: false,
    });
    expect(result).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_AUTH', status: 401 });
    expect(receiver.refused).toEqual([{ error: 'no matching signature' }]);
    const text = JSON.stringify(result);
    expect(text).not.toContain(mine);
    expect(text).not.toContain('8c1f-secret-path');
  });

  it('retries after the receiver was down: same id, new timestamp, processed once', async () => {
    const secret = generateWebhookSecret();
    const receiver = await startWebhookReceiver({ secrets: [secret] });
    receivers.push(receiver);
    const payload = buildWebhookPayload(source({ deliveryId: newDeliveryId() }));
    await receiver.down();
    const first = await deliverWebhook({ url: receiver.url, secret, payload, expectReply: false });
    expect(first).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_UNREACHABLE' });
    const wait = nextRetryDelayMs(1, first as ClientFailure, () => 0.5);
    expect(wait).toBe(5_000);
    await receiver.up();
    // The retry (a durable job would run it `wait` later; the clock here is the test's).
    const nowS = Math.floor(Date.now() / 1000);
    const second = await deliverWebhook({
      url: receiver.url,
      secret,
      payload,
      expectReply: false,
      nowS,
    });
    expect(second.ok).toBe(true);
    // A duplicate retry (a worker that died after sending) is recognised by its id.
    const third = await deliverWebhook({
      url: receiver.url,
      secret,
      payload,
      expectReply: false,
      nowS: nowS + 1,
    });
    expect(third.ok).toBe(true);
    expect(receiver.accepted.map((a) => a.id)).toEqual([payload.id]);
    expect(receiver.duplicates).toBe(1);
  });

  it('synchronous reply: messages and actions parsed; a malformed reply is BAD_ANSWER', async () => {
    const secret = generateWebhookSecret();
    const receiver = await startWebhookReceiver({ secrets: [secret] });
    receivers.push(receiver);
    receiver.answerWith((payload) => ({
      status: 200,
      body: {
        messages: [
          { body: `Recebi: ${payload.chatInput}` },
          { body: 'Segue o boleto', mediaUrl: 'https://cdn.example.com/b.pdf' },
        ],
        actions: [
          { type: 'tag', tagId: 3 },
          { type: 'transfer', queueId: 2 },
        ],
      },
    }));
    const payload = buildWebhookPayload(source());
    expect(await deliverWebhook({ url: receiver.url, secret, payload, expectReply: true })).toEqual(
      {
        ok: true,
        value: {
          status: 200,
          reply: {
            messages: [
              { body: 'Recebi: Quero o boleto' },
              { body: 'Segue o boleto', mediaUrl: 'https://cdn.example.com/b.pdf' },
            ],
            actions: [
              { type: 'tag', tagId: 3 },
              { type: 'transfer', queueId: 2 },
            ],
          },
        },
      },
    );
    receiver.answerWith(() => ({
      status: 200,
      body: { actions: [{ type: 'delete-everything' }] },
    }));
    const bad = await deliverWebhook({ url: receiver.url, secret, payload, expectReply: true });
    expect(bad).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_BAD_ANSWER', status: 200 });
  });

  it('parseWebhookReply: empty is nothing to do; defaults fill; media must be http(s)', () => {
    expect(parseWebhookReply('')).toEqual({ ok: true, value: { messages: [], actions: [] } });
    expect(parseWebhookReply('{"messages":[{"body":"oi"}]}')).toEqual({
      ok: true,
      value: { messages: [{ body: 'oi' }], actions: [] },
    });
    expect(parseWebhookReply('{"actions":[{"type":"close"}]}')).toEqual({
      ok: true,
      value: { messages: [], actions: [{ type: 'close' }] },
    });
    expect(
      parseWebhookReply('{"messages":[{"body":"x","mediaUrl":"file:///etc/passwd"}]}').ok,
    ).toBe(false);
    expect(parseWebhookReply('ok').ok).toBe(false);
  });
});

describe('retry schedule', () => {
  const down: ClientFailure = {
    ok: false,
    service: 'webhook',
    code: 'ERR_INTEGRATION_UNREACHABLE',
    message: '',
  };
  const status = (s: number, retryAfterMs?: number): ClientFailure => ({
    ...down,
    code: 'ERR_INTEGRATION_REJECTED',
    status: s,
    retryAfterMs,
  });

  it('grows along the schedule with ±20 % jitter, then dead-letters', () => {
    expect(WEBHOOK_RETRY_SCHEDULE_MS).toEqual([
      5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000,
    ]);
    expect(
      WEBHOOK_RETRY_SCHEDULE_MS.map((_, i) => nextRetryDelayMs(i + 1, down, () => 0.5)),
    ).toEqual([...WEBHOOK_RETRY_SCHEDULE_MS]);
    expect(nextRetryDelayMs(1, down, () => 0)).toBe(4_000);
    expect(nextRetryDelayMs(1, down, () => 0.999_999)).toBe(6_000);
    expect(nextRetryDelayMs(9, down, () => 0.5)).toBeNull();
  });

  it('a refusal no retry fixes dead-letters at once; 5xx, 408, 429 retry; Retry-After wins when longer', () => {
    expect(nextRetryDelayMs(1, status(400))).toBeNull();
    expect(nextRetryDelayMs(1, status(401))).toBeNull();
    expect(nextRetryDelayMs(1, status(410))).toBeNull();
    expect(nextRetryDelayMs(1, status(503), () => 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(1, status(408), () => 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(1, status(429, 60_000), () => 0.5)).toBe(60_000);
    expect(nextRetryDelayMs(2, status(429, 1_000), () => 0.5)).toBe(30_000);
    expect(
      nextRetryDelayMs(1, { ...down, code: 'ERR_INTEGRATION_CREDENTIALS_INVALID' }),
    ).toBeNull();
  });
});
