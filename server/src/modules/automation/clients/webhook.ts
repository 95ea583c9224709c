import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  WEBHOOK_PAYLOAD_VERSION,
  webhookPayloadSchema,
  webhookReplySchema,
  type WebhookPayload,
  type WebhookReply,
} from '@atende/shared';
import { originOf, send, statusFailure, type HttpCall } from './http.js';
import { failure, ok, type ClientFailure, type Result } from './result.js';

/**
 * Webhook and n8n delivery (issue 18 item 2): the versioned payload of docs/webhooks.md,
 * Standard Webhooks signing and verification, the synchronous reply, and the retry schedule.
 */

// ---------------------------------------------------------------- payload

export interface PayloadSource {
  deliveryId: string;
  occurredAt: Date;
  companyId: number;
  integrationId: number;
  ticket: {
    id: number;
    uuid: string;
    status: string;
    queueId: number | null;
    userId: number | null;
    whatsappId: number | null;
  };
  contact: { id: number; name: string; number: string; email?: string | null };
  message: {
    id: number;
    wid: string;
    fromMe: boolean;
    body: string;
    mediaType: string;
    mediaUrl: string | null;
    createdAt: Date;
  };
}

/** `msg_` and a random id: one per delivery, kept across its retries (the receiver dedupes on it). */
export const newDeliveryId = (): string => `msg_${randomUUID().replaceAll('-', '')}`;

/**
 * The payload, field by field from what the source holds (extra properties of the source,
 * whatever they are, never reach it: the schema strips them). `sessionId` is the ticket's
 * uuid, `chatInput` the message text (a media message's caption, or its type in brackets).
 */
export function buildWebhookPayload(source: PayloadSource): WebhookPayload {
  const body = source.message.body.trim();
  const chatInput = body !== '' ? source.message.body : `[${source.message.mediaType}]`;
  return webhookPayloadSchema.parse({
    version: WEBHOOK_PAYLOAD_VERSION,
    event: 'message.received',
    id: source.deliveryId,
    occurredAt: source.occurredAt.toISOString(),
    companyId: source.companyId,
    integrationId: source.integrationId,
    sessionId: source.ticket.uuid,
    chatInput,
    ticket: source.ticket,
    contact: { ...source.contact, email: source.contact.email ?? '' },
    message: { ...source.message, createdAt: source.message.createdAt.toISOString() },
  });
}

// ---------------------------------------------------------------- signing

const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks: secrets of 24 to 64 random bytes. */
const SECRET_BYTES = { min: 24, max: 64 };
/** How far a `webhook-timestamp` may be from the receiver's clock. */
export const WEBHOOK_TOLERANCE_S = 300;

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export const generateWebhookSecret = (): string =>
  `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** The key bytes of a `whsec_` secret, or CREDENTIALS_INVALID. */
export function webhookKey(secret: string): Result<Buffer> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded)
    ? Buffer.from(encoded, 'base64')
    : Buffer.alloc(0);
  if (key.length < SECRET_BYTES.min || key.length > SECRET_BYTES.max) {
    return failure(
      'webhook',
      'ERR_INTEGRATION_CREDENTIALS_INVALID',
      `a signing secret is "${SECRET_PREFIX}" and ${SECRET_BYTES.min} to ${SECRET_BYTES.max} bytes in base64`,
      [secret],
    );
  }
  return ok(key);
}

const signature = (key: Buffer, id: string, timestamp: number, body: string): string =>
  createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');

export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** The three Standard Webhooks headers for `body` (the exact bytes that will be sent). */
export function signWebhook(
  key: Buffer,
  id: string,
  timestampS: number,
  body: string,
): SignedHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': `v1,${signature(key, id, timestampS, body)}`,
  };
}

export type VerifyError =
  'missing headers' | 'timestamp out of tolerance' | 'no matching signature' | 'bad secret';

/**
 * Checks a delivery as a receiver should: the headers present, the timestamp within
 * `toleranceS`, and one of the space-separated `v1,` signatures equal (in constant time) to
 * the one computed with any of `secrets` (several while a secret is being rotated).
 */
export function verifyWebhook(
  secrets: readonly string[],
  headers: Record<string, string | string[] | undefined>,
  body: string,
  options: { nowS?: number; toleranceS?: number } = {},
): { ok: true } | { ok: false; error: VerifyError } {
  const one = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const id = one('webhook-id');
  const timestamp = one('webhook-timestamp');
  const given = one('webhook-signature');
  if (!id || !timestamp || !given || !/^\d+$/.test(timestamp))
    return { ok: false, error: 'missing headers' };
  const nowS = options.nowS ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowS - Number(timestamp)) > (options.toleranceS ?? WEBHOOK_TOLERANCE_S)) {
    return { ok: false, error: 'timestamp out of tolerance' };
  }
  const offered = given
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  for (const secret of secrets) {
    const key = webhookKey(secret);
    if (!key.ok) return { ok: false, error: 'bad secret' };
    const expected = Buffer.from(signature(key.value, id, Number(timestamp), body), 'base64');
    if (offered.some((o) => o.length === expected.length && timingSafeEqual(o, expected)))
      return { ok: true };
  }
  return { ok: false, error: 'no matching signature' };
}

// ---------------------------------------------------------------- reply

/**
 * A synchronous reply ('Respond to Webhook'): `{messages, actions}`. An empty body (or 204) is
 * an empty reply; anything that is not that shape is BAD_ANSWER.
 */
export function parseWebhookReply(body: Buffer | string): Result<WebhookReply> {
  const text = (typeof body === 'string' ? body : body.toString('utf8')).trim();
  if (text === '') return ok({ messages: [], actions: [] });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failure('webhook', 'ERR_INTEGRATION_BAD_ANSWER', 'the reply is not JSON', []);
  }
  const parsed = webhookReplySchema.safeParse(json);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  return failure(
    'webhook',
    'ERR_INTEGRATION_BAD_ANSWER',
    `the reply does not fit {messages, actions} (${issue?.path.join('.') || 'body'}: ${issue?.message})`,
    [],
  );
}

// ---------------------------------------------------------------- delivery

export interface Delivery {
  url: string;
  /** The integration's `whsec_` secret. */
  secret: string;
  payload: WebhookPayload;
  /** Wait for and read a `{messages, actions}` reply. */
  expectReply: boolean;
  timeoutMs?: number;
  nowS?: number;
}

export interface Delivered {
  status: number;
  reply: WebhookReply | null;
}

const DEFAULT_TIMEOUT_MS = 15_000;

const urlSecrets = (url: string): string[] => {
  try {
    const { pathname, search } = new URL(url);
    return [pathname + search, pathname, search.slice(1)].filter((part) => part.length > 1);
  } catch {
    return [];
  }
};

/** One attempt: the signed POST. A non-2xx status, network error or timeout is the failure. */
export async function deliverWebhook(delivery: Delivery): Promise<Result<Delivered>> {
  const key = webhookKey(delivery.secret);
  if (!key.ok) return key;
  const body = JSON.stringify(delivery.payload);
  const call: HttpCall = {
    service: 'webhook',
    url: delivery.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': `Atende-Webhooks/${WEBHOOK_PAYLOAD_VERSION}`,
      ...signWebhook(
        key.value,
        delivery.payload.id,
        delivery.nowS ?? Math.floor(Date.now() / 1000),
        body,
      ),
    },
    body,
    timeoutMs: delivery.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // The URL's path and query are often the receiver's only secret (n8n webhook paths).
    secrets: [delivery.secret, delivery.url, ...urlSecrets(delivery.url)],
  };
  const sent = await send(call);
  if (!sent.ok) return sent;
  if (sent.value.status < 200 || sent.value.status > 299) return statusFailure(call, sent.value);
  if (!delivery.expectReply) return ok({ status: sent.value.status, reply: null });
  const reply = parseWebhookReply(sent.value.bytes);
  if (!reply.ok)
    return {
      ...reply,
      message: `${originOf(delivery.url)}: ${reply.message}`,
      status: sent.value.status,
    };
  return ok({ status: sent.value.status, reply: reply.value });
}

// ---------------------------------------------------------------- retries

/**
 * Waits before retry n (1-based) after a failed attempt: about 5 s, 30 s, 2 min, 10 min, 30 min,
 * 1 h, 3 h, 6 h (total ≈ 10 h 43 min), then the delivery is dead-lettered.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000,
] as const;
/** ± this share of each wait is random, so many failed deliveries do not come back at once. */
export const WEBHOOK_RETRY_JITTER = 0.2;

/** Statuses a retry may fix; other 4xx mean the request itself is refused. */
const RETRYABLE_STATUS = new Set([408, 409, 425, 429]);

export const isRetryable = (f: ClientFailure): boolean =>
  f.status === undefined
    ? f.code !== 'ERR_INTEGRATION_CREDENTIALS_INVALID'
    : f.status >= 500 || RETRYABLE_STATUS.has(f.status);

/**
 * The wait before the next attempt after `failedAttempts` failures, or null when the delivery
 * goes to the dead letters (schedule used up, or a failure no retry fixes). A `Retry-After`
 * longer than the schedule's wait wins. `random` in [0, 1).
 */
export function nextRetryDelayMs(
  failedAttempts: number,
  last: ClientFailure,
  random: () => number = Math.random,
): number | null {
  if (!isRetryable(last) || failedAttempts < 1 || failedAttempts > WEBHOOK_RETRY_SCHEDULE_MS.length)
    return null;
  const base = WEBHOOK_RETRY_SCHEDULE_MS[failedAttempts - 1]!;
  const jittered = Math.round(
    base * (1 - WEBHOOK_RETRY_JITTER + 2 * WEBHOOK_RETRY_JITTER * random()),
  );
  return Math.max(jittered, last.retryAfterMs ?? 0);
}
