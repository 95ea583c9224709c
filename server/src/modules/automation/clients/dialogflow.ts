import { createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { DialogflowLanguage } from '@atende/shared';
import { parseJson, send, sendJson, statusFailure, trimBase, type HttpCall } from './http.js';
import { failure, ok, type Result } from './result.js';

/**
 * A client of Dialogflow ES (issue 18 item 2): the service account's JWT (RS256, node:crypto)
 * exchanged for an access token at its token URI and cached until a minute before it expires,
 * then REST `projects/{project}/agent/sessions/{session}:detectIntent`.
 */

export const DIALOGFLOW_API = 'https://dialogflow.googleapis.com';
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const DIALOGFLOW_SCOPE = 'https://www.googleapis.com/auth/dialogflow';
/** A cached token is renewed this long before Google says it expires. */
export const TOKEN_RENEW_MARGIN_MS = 60_000;
const ASSERTION_LIFETIME_S = 3600;
const DEFAULT_TIMEOUT_MS = 15_000;

/** The fields of a Google service-account key file we use (the rest is ignored). */
export const serviceAccountSchema = z.object({
  type: z.literal('service_account'),
  project_id: z.string().regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'not a Google project id'),
  private_key_id: z.string().optional(),
  private_key: z.string().includes('PRIVATE KEY'),
  client_email: z.email(),
  token_uri: z.url({ protocol: /^https$/ }).optional(),
});

export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  privateKeyId?: string;
  privateKey: KeyObject;
  tokenUri: string;
}

/**
 * The service-account JSON as the admin pasted it. A failure names the field that is wrong,
 * never its value.
 */
export function parseServiceAccount(json: string): Result<ServiceAccount> {
  const bad = (why: string) =>
    failure(
      'dialogflow',
      'ERR_INTEGRATION_CREDENTIALS_INVALID',
      `service account JSON: ${why}`,
      [],
    );
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return bad('not valid JSON');
  }
  const parsed = serviceAccountSchema.safeParse(raw);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || 'root'))];
    return bad(`missing or invalid ${fields.join(', ')}`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(parsed.data.private_key);
  } catch {
    return bad('private_key is not a readable PEM key');
  }
  if (privateKey.asymmetricKeyType !== 'rsa') return bad('private_key is not an RSA key');
  return ok({
    projectId: parsed.data.project_id,
    clientEmail: parsed.data.client_email,
    privateKeyId: parsed.data.private_key_id,
    privateKey,
    tokenUri: parsed.data.token_uri ?? GOOGLE_TOKEN_URI,
  });
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The signed JWT the token endpoint exchanges (RFC 7523 with Google's claims). */
export function signAssertion(
  account: ServiceAccount,
  audience: string,
  nowMs = Date.now(),
): string {
  const iat = Math.floor(nowMs / 1000);
  const header = {
    alg: 'RS256',
    typ: 'JWT',
    ...(account.privateKeyId ? { kid: account.privateKeyId } : {}),
  };
  const claims = {
    iss: account.clientEmail,
    scope: DIALOGFLOW_SCOPE,
    aud: audience,
    iat,
    exp: iat + ASSERTION_LIFETIME_S,
  };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${base64url(sign('RSA-SHA256', Buffer.from(input), account.privateKey))}`;
}

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().int().positive(),
  token_type: z.string().optional(),
});

const fulfillmentMessage = z.looseObject({
  platform: z.string().optional(),
  text: z.looseObject({ text: z.array(z.string()).default([]) }).optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});
const detectAnswer = z.looseObject({
  responseId: z.string().optional(),
  queryResult: z.looseObject({
    queryText: z.string().optional(),
    action: z.string().optional(),
    fulfillmentText: z.string().optional(),
    fulfillmentMessages: z.array(fulfillmentMessage).default([]),
    intent: z
      .looseObject({ displayName: z.string().optional(), endInteraction: z.boolean().optional() })
      .nullish(),
    intentDetectionConfidence: z.number().optional(),
    diagnosticInfo: z.record(z.string(), z.unknown()).nullish(),
  }),
});

/**
 * A custom payload that hands the conversation over: `{"handoff": true}` (the integration's
 * queue), `{"handoff": {"queueId": 3}}`, or `{"close": true}`.
 */
const transferPayload = z.looseObject({
  handoff: z.union([
    z.literal(true),
    z.looseObject({ queueId: z.coerce.number().int().positive().optional() }),
  ]),
});
const closePayload = z.looseObject({ close: z.literal(true) });

export type DialogflowHandOff =
  { reason: 'end' } | { reason: 'transfer'; queueId: number | null } | { reason: 'close' };

/** The hand-off a custom payload asks for, or null. */
export function payloadHandOff(payload: unknown): DialogflowHandOff | null {
  if (closePayload.safeParse(payload).success) return { reason: 'close' };
  const transfer = transferPayload.safeParse(payload);
  if (!transfer.success) return null;
  const asked = transfer.data.handoff;
  return { reason: 'transfer', queueId: asked === true ? null : (asked.queueId ?? null) };
}

export interface DetectedIntent {
  /** Texts to send, in order. */
  texts: string[];
  handOff: DialogflowHandOff | null;
  intent: string | null;
  confidence: number | null;
}

export interface DialogflowConfig {
  /** The pasted service-account JSON (the integration's `jsonContent`). */
  serviceAccount: ServiceAccount;
  language: DialogflowLanguage;
  /** Tests and private endpoints; default Google's. */
  apiBaseUrl?: string;
  /** Overrides the JSON's `token_uri` (tests: a local token endpoint over http). */
  tokenUri?: string;
  timeoutMs?: number;
}

/** The answer read as texts and a hand-off (a custom payload, or the end of the conversation). */
export function readDetectAnswer(answer: z.infer<typeof detectAnswer>): DetectedIntent {
  const q = answer.queryResult;
  const texts: string[] = [];
  let handOff: DialogflowHandOff | null = null;
  // Messages for a named platform (Telegram, Slack...) duplicate the default ones.
  for (const m of q.fulfillmentMessages.filter(
    (m) => !m.platform || m.platform === 'PLATFORM_UNSPECIFIED',
  )) {
    for (const t of m.text?.text ?? []) if (t.trim()) texts.push(t);
    if (m.payload && !handOff) handOff = payloadHandOff(m.payload);
  }
  if (texts.length === 0 && q.fulfillmentText?.trim()) texts.push(q.fulfillmentText);
  const ended = q.intent?.endInteraction === true || q.diagnosticInfo?.end_conversation === true;
  if (!handOff && ended) handOff = { reason: 'end' };
  return {
    texts,
    handOff,
    intent: q.intent?.displayName ?? null,
    confidence: q.intentDetectionConfidence ?? null,
  };
}

export function createDialogflowClient(config: DialogflowConfig) {
  const account = config.serviceAccount;
  const tokenUri = config.tokenUri ?? account.tokenUri;
  const api = trimBase(config.apiBaseUrl ?? DIALOGFLOW_API);
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let cached: { token: string; renewAt: number } | null = null;
  let pending: Promise<Result<string>> | null = null;

  async function exchange(): Promise<Result<string>> {
    const assertion = signAssertion(account, tokenUri);
    const call: HttpCall = {
      service: 'dialogflow',
      url: tokenUri,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
      timeoutMs,
      secrets: [assertion],
    };
    const sent = await send(call);
    if (!sent.ok) return sent;
    if (sent.value.status < 200 || sent.value.status > 299) {
      const f = statusFailure(call, sent.value);
      // OAuth answers a refused assertion (bad key, deleted account) with 400 invalid_grant.
      return sent.value.status === 400 ? { ...f, code: 'ERR_INTEGRATION_AUTH' } : f;
    }
    const parsed = parseJson(call, sent.value, tokenAnswer);
    if (!parsed.ok) return parsed;
    cached = {
      token: parsed.value.access_token,
      renewAt: Date.now() + parsed.value.expires_in * 1000 - TOKEN_RENEW_MARGIN_MS,
    };
    return ok(parsed.value.access_token);
  }

  /** The cached token, or one exchange shared by concurrent callers. */
  async function accessToken(): Promise<Result<string>> {
    if (cached && Date.now() < cached.renewAt) return ok(cached.token);
    pending ??= exchange().finally(() => {
      pending = null;
    });
    return pending;
  }

  /** `detectIntent` of a text in the session (our ticket), in the integration's language. */
  async function detectIntent(sessionId: string, text: string): Promise<Result<DetectedIntent>> {
    const token = await accessToken();
    if (!token.ok) return token;
    const path = `/v2/projects/${encodeURIComponent(account.projectId)}/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`;
    const answered = await sendJson(
      {
        service: 'dialogflow',
        url: `${api}${path}`,
        headers: { authorization: `Bearer ${token.value}`, 'content-type': 'application/json' },
        body: JSON.stringify({ queryInput: { text: { text, languageCode: config.language } } }),
        timeoutMs,
        secrets: [token.value],
      },
      detectAnswer,
    );
    if (!answered.ok) {
      // A token Google stopped accepting early: forget it so the next call exchanges again.
      if (answered.status === 401) cached = null;
      return answered;
    }
    return ok(readDetectAnswer(answered.value));
  }

  /** `testSession`: a token and one detectIntent in a throwaway session. */
  async function check(): Promise<Result<DetectedIntent>> {
    return detectIntent(`atende-test-${randomUUID().slice(0, 8)}`, 'Olá');
  }

  return { detectIntent, check, accessToken };
}

export type DialogflowClient = ReturnType<typeof createDialogflowClient>;
