// Questions only the provider can answer (is a number on WhatsApp? the phone's contacts?) go to
// the worker holding the connection's lease: the API adds a job ('check', 'contacts') on the
// connection's agent lane and waits a few seconds for its result. Number checks are cached in
// Redis, so a number is asked about at most once in a while per company.
import { QueueEvents, type Job } from 'bullmq';
import type { AppContext } from '../context.js';
import { createRedis } from '../lib/redis.js';
import { logger } from '../logger.js';
import { connectionQueue, connectionQueueName } from './connection-queue.js';
import type { ContactInfo, WhatsAppProvider } from './port.js';

/** A number on WhatsApp stays known for a day; one that is not, for an hour (it may join). */
export const NUMBER_CHECK_TTL_S = { exists: 24 * 3600, missing: 3600 } as const;
/** How long the API waits for the connection's worker before going on unchecked. */
export const NUMBER_CHECK_WAIT_MS = 8_000;

export type NumberOnWhatsApp = 'exists' | 'missing' | 'unknown';

const cacheKey = (app: AppContext, companyId: number, phone: string) =>
  `${app.prefix}:wa:number:${companyId}:${phone}`;

interface CheckJob {
  companyId: number;
  phone: string;
}

/** The 'check' job, run by the connection's worker: asks the provider and caches the answer. */
export async function processNumberCheck(
  app: AppContext,
  job: Job<CheckJob>,
  provider: WhatsAppProvider,
): Promise<boolean> {
  const { exists } = await provider.checkNumber(job.data.phone);
  const ttl = exists ? NUMBER_CHECK_TTL_S.exists : NUMBER_CHECK_TTL_S.missing;
  await app.redis.set(
    cacheKey(app, job.data.companyId, job.data.phone),
    exists ? '1' : '0',
    'EX',
    ttl,
  );
  return exists;
}

/**
 * Whether `phone` (digits) is on WhatsApp, asked through connection `whatsappId`. 'unknown'
 * when the connection cannot answer in time (disconnected, no worker): callers go on then.
 */
export async function numberOnWhatsApp(
  app: AppContext,
  companyId: number,
  whatsappId: number,
  phone: string,
): Promise<NumberOnWhatsApp> {
  const cached = await app.redis.get(cacheKey(app, companyId, phone));
  if (cached !== null) return cached === '1' ? 'exists' : 'missing';
  try {
    const check: CheckJob = { companyId, phone };
    const exists = await ask<boolean>(app, whatsappId, 'check', check, NUMBER_CHECK_WAIT_MS);
    return exists ? 'exists' : 'missing';
  } catch (err) {
    logger.warn({ err, whatsappId }, 'number check unanswered');
    return 'unknown';
  }
}

/** How long an agenda import waits for the phone's contacts. */
export const PHONE_CONTACTS_WAIT_MS = 15_000;

/** The phone's contacts through connection `whatsappId`; throws when it cannot answer. */
export function phoneContacts(app: AppContext, whatsappId: number): Promise<ContactInfo[]> {
  return ask<ContactInfo[]>(app, whatsappId, 'contacts', {}, PHONE_CONTACTS_WAIT_MS);
}

/** Adds a job on the connection's agent lane and waits for its result. */
async function ask<T>(
  app: AppContext,
  whatsappId: number,
  name: 'check' | 'contacts',
  data: object,
  waitMs: number,
): Promise<T> {
  const redis = createRedis(app.config.REDIS_URL);
  const events = new QueueEvents(connectionQueueName(whatsappId, 'agent'), {
    connection: redis,
    prefix: `${app.prefix}:bull`,
  });
  try {
    await events.waitUntilReady();
    const job = await connectionQueue(app, whatsappId, 'agent').add(name, data, {
      attempts: 1,
      removeOnComplete: 100,
      removeOnFail: 100,
    });
    return (await job.waitUntilFinished(events, waitMs)) as T;
  } finally {
    await events.close();
    redis.disconnect();
  }
}

/** The connection a company's checks go through: its default, else any connected one. */
export async function checkingConnection(
  app: AppContext,
  companyId: number,
): Promise<number | undefined> {
  const [row] = (await app.ds.query(
    `SELECT id FROM whatsapps WHERE "companyId" = $1 AND status = 'CONNECTED'
      ORDER BY "isDefault" DESC, id LIMIT 1`,
    [companyId],
  )) as { id: number }[];
  return row?.id;
}
