import type { ErrorCode } from '@atende/shared';
import { AppError } from '../../../http/errors.js';

/** The outside services this folder speaks to. */
export type Service = 'openai' | 'typebot' | 'dialogflow' | 'webhook';

/** Codes a client answers a failed call with (texts in shared/src/errors.ts). */
export type FailureCode = Extract<ErrorCode, `ERR_INTEGRATION_${string}`>;

/**
 * A failed call, as data: never thrown, never the provider's raw answer, never a credential.
 * `message` is for logs and admins (English, short); `status` is the provider's HTTP status.
 */
export interface ClientFailure {
  ok: false;
  service: Service;
  code: FailureCode;
  message: string;
  status?: number;
  /** From `Retry-After` on a 429 or 503, in milliseconds. */
  retryAfterMs?: number;
}

export type Result<T> = { ok: true; value: T } | ClientFailure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

/**
 * A failure whose message has every given secret replaced with `[redacted]` (and, for a
 * key-like secret, its first 8 characters), so no code path can leak one by echoing a
 * provider's text.
 */
export function failure(
  service: Service,
  code: FailureCode,
  message: string,
  secrets: readonly string[],
  extra: { status?: number; retryAfterMs?: number } = {},
): ClientFailure {
  return { ok: false, service, code, message: redact(message, secrets), ...extra };
}

/** `text` with each secret removed; secrets shorter than 4 characters are not searched. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out = out.split(secret).join('[redacted]');
    // Providers often echo a key partly masked ("sk-abcd****wxyz"): drop its leading part too.
    if (secret.length >= 16 && /^[\w.+=-]+$/.test(secret))
      out = out.split(secret.slice(0, 8)).join('[redacted]');
  }
  return out;
}

/** A failure as the `AppError` a route answers with (for validation of credentials on save). */
export const failureError = (f: ClientFailure): AppError =>
  new AppError(f.code, { details: { service: f.service, status: f.status ?? null } });
