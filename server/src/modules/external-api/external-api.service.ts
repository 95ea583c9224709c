// The external messages API (issue 18 item 3): a connection's token sends WhatsApp messages from
// other systems. The token is kept hashed (whatsapps.token = sha256), compared in constant time;
// each token has a rate limit; an Idempotency-Key makes a repeated call send once.
import { createHash } from 'node:crypto';
import {
  CONNECTION_TOKEN_MIN_LENGTH,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  type ExternalMessageStatus,
} from '@atende/shared';
import type { Request, Response } from 'express';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { bearer } from '../../http/route.js';
import { withChanges } from '../changes/index.js';
import { upsertContact } from '../contacts/index.js';
import { findOrCreateTicket, loadTicket, ticketChange } from '../tickets/index.js';
import { connectionTokenMatches, hashConnectionToken } from '../whatsapps/index.js';

/** The connection a token belongs to, and its company. */
export interface ApiCaller {
  companyId: number;
  whatsappId: number;
}

/** The rate limit's window. */
export const RATE_WINDOW_MS = 60_000;
/** How long a repeated call waits for the first one with its key to finish. */
export const IDEMPOTENCY_WAIT_MS = 10_000;

/**
 * The caller of an API request: the bearer must be a connection's token (at least 16
 * characters); the company must be active and its plan must have useExternalApi.
 */
export async function authenticate(app: AppContext, req: Request): Promise<ApiCaller> {
  const token = bearer(req);
  if (!token || token.length < CONNECTION_TOKEN_MIN_LENGTH) {
    throw new AppError('ERR_API_TOKEN_INVALID');
  }
  const [row] = (await app.ds.query(
    `SELECT w.id, w."companyId", w.token, c.status AS "companyActive", p."useExternalApi"
       FROM whatsapps w JOIN companies c ON c.id = w."companyId"
       LEFT JOIN plans p ON p.id = c."planId"
      WHERE w.token = $1`,
    [hashConnectionToken(token)],
  )) as {
    id: number;
    companyId: number;
    token: string;
    companyActive: boolean;
    useExternalApi: boolean | null;
  }[];
  if (!row || !connectionTokenMatches(token, row.token))
    throw new AppError('ERR_API_TOKEN_INVALID');
  if (row.companyActive === false) throw new AppError('ERR_COMPANY_INACTIVE');
  if (row.useExternalApi !== true) throw new AppError('ERR_PLAN_FEATURE_DISABLED');
  return { companyId: row.companyId, whatsappId: row.id };
}

/**
 * A fixed window per connection token: over `EXTERNAL_API_RATE_LIMIT` calls a minute the call
 * is refused with 429 and `Retry-After` (seconds to the next window).
 */
export async function rateLimit(app: AppContext, caller: ApiCaller, res: Response): Promise<void> {
  const now = Date.now();
  const window = Math.floor(now / RATE_WINDOW_MS);
  const key = `${app.prefix}:extapi:rate:${caller.whatsappId}:${window}`;
  const count = await app.redis.incr(key);
  if (count === 1) await app.redis.pexpire(key, RATE_WINDOW_MS * 2);
  if (count > app.config.EXTERNAL_API_RATE_LIMIT) {
    const retryMs = (window + 1) * RATE_WINDOW_MS - now;
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryMs / 1000))));
    throw new AppError('ERR_API_RATE_LIMITED', { details: { retryAfterMs: retryMs } });
  }
}

/** The `Idempotency-Key` header, or undefined; a malformed one is bad input. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (!key || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError('ERR_VALIDATION', {
      details: [{ path: 'headers.idempotency-key', message: 'Invalid Idempotency-Key' }],
    });
  }
  return key;
}

export const requestHash = (parts: unknown): string =>
  createHash('sha256').update(JSON.stringify(parts)).digest('hex');

export type Claim<T> = { kind: 'new'; id: number } | { kind: 'done'; answer: T };

/**
 * Claims an idempotency key for this request: `new` (go on, then `completeKey` or `dropKey`),
 * or `done` with the first call's answer. The same key with another request is 422; a first
 * call still running after IDEMPOTENCY_WAIT_MS is 409.
 */
export async function claimKey<T>(
  app: AppContext,
  caller: ApiCaller,
  key: string,
  hash: string,
): Promise<Claim<T>> {
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  for (;;) {
    const [inserted] = (await app.ds.query(
      `INSERT INTO external_api_requests ("companyId", "whatsappId", "idempotencyKey", "requestHash")
       VALUES ($1, $2, $3, $4) ON CONFLICT ("whatsappId", "idempotencyKey") DO NOTHING RETURNING id`,
      [caller.companyId, caller.whatsappId, key, hash],
    )) as { id: number }[];
    if (inserted) return { kind: 'new', id: inserted.id };
    const [known] = (await app.ds.query(
      `SELECT "requestHash", answer FROM external_api_requests
        WHERE "whatsappId" = $1 AND "idempotencyKey" = $2`,
      [caller.whatsappId, key],
    )) as { requestHash: string; answer: T | null }[];
    if (!known) continue; // the first call failed and let the key go: this one takes it
    if (known.requestHash !== hash) throw new AppError('ERR_IDEMPOTENCY_KEY_REUSED');
    if (known.answer !== null) return { kind: 'done', answer: known.answer };
    if (Date.now() > deadline) throw new AppError('ERR_IDEMPOTENCY_IN_PROGRESS');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function completeKey(app: AppContext, id: number, answer: unknown): Promise<void> {
  await app.ds.query('UPDATE external_api_requests SET answer = $2 WHERE id = $1', [
    id,
    JSON.stringify(answer),
  ]);
}

/** A call that failed before sending lets its key go, so the client may retry it. */
export async function dropKey(app: AppContext, id: number): Promise<void> {
  await app.ds.query('DELETE FROM external_api_requests WHERE id = $1 AND answer IS NULL', [id]);
}

/** The contact of `number` (created when new) and its open ticket on the connection. */
export async function ticketFor(app: AppContext, caller: ApiCaller, number: string) {
  return withChanges(app, caller.companyId, async (tx, changes) => {
    const contactId = await upsertContact(tx, caller.companyId, { phone: number }, changes);
    if (!contactId) throw new AppError('ERR_WAPP_INVALID_CONTACT');
    const ref = await findOrCreateTicket(tx, caller.companyId, contactId, caller.whatsappId, false);
    if (ref.created) {
      changes.push(ticketChange(await loadTicket(tx, caller.companyId, ref.id)));
      changes.events.push({
        type: 'ticket.created',
        payload: { ticketId: ref.id, contactId, whatsappId: caller.whatsappId },
      });
    }
    return ref.id;
  });
}

/** Where a message is, from its ack and send error. */
export function statusOf(message: {
  ack: number;
  sendError?: string | null;
}): ExternalMessageStatus {
  if (message.sendError) return 'failed';
  if (message.ack >= 3) return 'read';
  if (message.ack === 2) return 'delivered';
  if (message.ack === 1) return 'sent';
  return 'queued';
}
