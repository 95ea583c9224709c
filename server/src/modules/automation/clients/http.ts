import type { z } from 'zod';
import {
  failure,
  ok,
  type ClientFailure,
  type FailureCode,
  type Result,
  type Service,
} from './result.js';

/** One HTTP call to an outside service. */
export interface HttpCall {
  service: Service;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | FormData | Uint8Array;
  timeoutMs: number;
  /** Credentials this call carries: removed from every failure message. */
  secrets: readonly string[];
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** Outside answers larger than this are refused (a JSON answer or one voice note). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * Sends the call and reads the whole answer. Never throws: a network error, a refused redirect
 * (outside services are never followed to another address) or the timeout is a failure; any
 * HTTP status is an answer for the caller to judge.
 */
export async function send(call: HttpCall): Promise<Result<HttpAnswer>> {
  const origin = originOf(call.url);
  try {
    const response = await fetch(call.url, {
      method: call.method ?? 'POST',
      headers: call.headers,
      // A copy over a plain ArrayBuffer: fetch's body type (DOM or Node's) refuses a shared buffer.
      body: call.body instanceof Uint8Array ? new Uint8Array(call.body) : call.body,
      redirect: 'error',
      signal: AbortSignal.timeout(call.timeoutMs),
    });
    const bytes = await readCapped(response, MAX_ANSWER_BYTES);
    if (!bytes) {
      return failure(
        call.service,
        'ERR_INTEGRATION_BAD_ANSWER',
        `answer over ${MAX_ANSWER_BYTES} bytes from ${origin}`,
        call.secrets,
      );
    }
    return ok({ status: response.status, headers: response.headers, bytes });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      return failure(
        call.service,
        'ERR_INTEGRATION_TIMEOUT',
        `no answer from ${origin} within ${call.timeoutMs} ms`,
        call.secrets,
      );
    }
    const cause = causeText(error);
    const what = /redirect/i.test(cause) ? 'redirect refused' : cause || 'connection failed';
    return failure(
      call.service,
      'ERR_INTEGRATION_UNREACHABLE',
      `${what} (${origin})`,
      call.secrets,
    );
  }
}

/** The body, read until `limit` bytes at most; null (and the stream cancelled) past it. */
async function readCapped(response: Response, limit: number): Promise<Buffer | null> {
  if (Number(response.headers.get('content-length') ?? '0') > limit) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The scheme, host and port of a URL: paths and queries may hold tokens (n8n webhook paths). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}

function causeText(error: unknown): string {
  const cause =
    error instanceof Error
      ? (error.cause as { code?: string; message?: string } | undefined)
      : undefined;
  return cause?.code ?? cause?.message ?? '';
}

/** The status's failure code: 401 bad credential, 403 forbidden or API disabled, and so on. */
export function statusCode(status: number): FailureCode {
  if (status === 401) return 'ERR_INTEGRATION_AUTH';
  if (status === 403) return 'ERR_INTEGRATION_FORBIDDEN';
  if (status === 404) return 'ERR_INTEGRATION_NOT_FOUND';
  if (status === 429) return 'ERR_INTEGRATION_RATE_LIMITED';
  if (status >= 500) return 'ERR_INTEGRATION_UNAVAILABLE';
  return 'ERR_INTEGRATION_REJECTED';
}

/** `Retry-After` (seconds or an HTTP date) in milliseconds, or undefined. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The provider's own short explanation, if its error body has one (at most 200 characters). */
export function providerMessage(bytes: Buffer): string {
  try {
    const body = JSON.parse(bytes.toString('utf8')) as unknown;
    const pick = (v: unknown): string | undefined => {
      if (typeof v === 'string') return v;
      if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        return pick(o.message) ?? pick(o.error_description) ?? pick(o.error);
      }
      return undefined;
    };
    return (pick(body) ?? '').slice(0, 200);
  } catch {
    return '';
  }
}

/** The failure a non-2xx answer stands for. */
export function statusFailure(call: HttpCall, answer: HttpAnswer): ClientFailure {
  const said = providerMessage(answer.bytes);
  const text = `${originOf(call.url)} answered ${answer.status}${said ? `: ${said}` : ''}`;
  return failure(call.service, statusCode(answer.status), text, call.secrets, {
    status: answer.status,
    retryAfterMs:
      answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.headers) : undefined,
  });
}

/** The answer's JSON checked against `schema`, or a BAD_ANSWER failure naming the first issue. */
export function parseJson<T>(call: HttpCall, answer: HttpAnswer, schema: z.ZodType<T>): Result<T> {
  let body: unknown;
  try {
    body = JSON.parse(answer.bytes.toString('utf8'));
  } catch {
    return failure(
      call.service,
      'ERR_INTEGRATION_BAD_ANSWER',
      `${originOf(call.url)} answered no JSON`,
      call.secrets,
      {
        status: answer.status,
      },
    );
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const where = issue?.path.join('.') || 'body';
  return failure(
    call.service,
    'ERR_INTEGRATION_BAD_ANSWER',
    `${originOf(call.url)} answered an unexpected shape (${where}: ${issue?.message ?? 'invalid'})`,
    call.secrets,
    { status: answer.status },
  );
}

/** Sends the call; a 2xx answer is parsed with `schema`, anything else is its failure. */
export async function sendJson<T>(call: HttpCall, schema: z.ZodType<T>): Promise<Result<T>> {
  const sent = await send(call);
  if (!sent.ok) return sent;
  if (sent.value.status < 200 || sent.value.status > 299) return statusFailure(call, sent.value);
  return parseJson(call, sent.value, schema);
}

/** A base URL without trailing slashes, so `${base}/path` never doubles one. */
export const trimBase = (url: string): string => url.replace(/\/+$/, '');
