// Sending: features enqueue an OutboundJob in a lane; the process holding the connection's lease
// sends it, retrying with backoff while the session reconnects. The 'agent' lane (replies in a
// conversation: agents and the bot) keeps a light pace (a token bucket with jitter) and never
// waits behind bulk sends; the 'bulk' lane (campaigns, schedules) goes through the connection's
// send governor (modules/governor). The final outcome goes to the handlers.
import { randomInt } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import {
  recordBulkOutcome,
  sendClock,
  takeBulkTurn,
  type Lane,
} from '../modules/governor/index.js';
import { connectionQueue } from './connection-queue.js';
import type { OutboundJob, OutboundResult } from './hooks.js';
import { mediaKindOf, resolveMediaPath, toVoiceNote } from './media.js';
import type { SentMessage, WhatsAppProvider } from './port.js';

/** Retries cover a reconnect with backoff: 2 s, 4 s ... about half an hour in all. */
export const OUTBOUND_ATTEMPTS = 10;

export interface EnqueueOptions {
  /** 'agent' (the default): a reply in a conversation; 'bulk': campaigns, schedules, paced. */
  lane?: Lane;
}

/**
 * Queues a send on its connection, in its lane. With `waMessageId` the job id is derived from
 * it, so a repeated enqueue of the same message is one job. Returns the job id.
 */
export async function enqueueOutbound(
  app: AppContext,
  job: OutboundJob,
  options: EnqueueOptions = {},
): Promise<string> {
  const queue = connectionQueue(app, job.whatsappId, options.lane ?? 'agent');
  const added = await queue.add('send', job, {
    ...(job.waMessageId && { jobId: `msg-${job.waMessageId}` }),
    attempts: OUTBOUND_ATTEMPTS,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: 1_000,
    removeOnFail: 5_000,
  });
  return added.id ?? '';
}

// Tokens refill continuously; the answer is how long to wait for one (0: taken now).
const TAKE_TOKEN = `
local now = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or burst
local ts = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * perMs)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) / perMs); tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], 3600000)
return wait`;

/** Takes a token of the connection's bucket; returns the milliseconds to wait before sending. */
export async function takeSendToken(app: AppContext, whatsappId: number): Promise<number> {
  const perMs = app.config.OUTBOUND_PER_MINUTE / 60_000;
  const key = `${app.prefix}:wa:bucket:${whatsappId}`;
  const wait = await app.redis.eval(
    TAKE_TOKEN,
    1,
    key,
    Date.now(),
    perMs,
    app.config.OUTBOUND_BURST,
  );
  return Number(wait);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function notify(app: AppContext, job: OutboundJob, result: OutboundResult) {
  for (const handler of app.hooks.outboundResult) {
    // A handler failure must not make the job retry: the message is already out.
    await handler(app, job, result).catch((err: unknown) =>
      logger.error({ err, whatsappId: job.whatsappId }, 'outbound result handler failed'),
    );
  }
}

async function execute(
  app: AppContext,
  provider: WhatsAppProvider,
  job: OutboundJob,
): Promise<SentMessage | undefined> {
  const options = {
    ...(job.quoted && { quoted: job.quoted }),
    ...(job.waMessageId && { messageId: job.waMessageId }),
  };
  const { content } = job;
  switch (content.kind) {
    case 'text':
      return provider.sendText(job.to, content.body, options);
    case 'media': {
      const file = resolveMediaPath(app, content.path);
      if (!file) throw new UnrecoverableError('ERR_SENDING_WAPP_MSG: media path outside media');
      const kind = mediaKindOf(content.mimetype);
      const voice =
        kind === 'audio' && content.voiceNote ? await toVoiceNote(app, file) : undefined;
      try {
        return await provider.sendMedia(
          job.to,
          {
            kind,
            data: { path: voice ?? file },
            mimetype: voice ? 'audio/ogg; codecs=opus' : content.mimetype,
            ...(content.fileName && { fileName: content.fileName }),
            ...(content.caption && { caption: content.caption }),
            ...(voice && { voiceNote: true }),
          },
          options,
        );
      } finally {
        if (voice) await rm(voice, { force: true });
      }
    }
    case 'location':
      return provider.sendLocation(job.to, content.location, options);
    case 'contacts':
      return provider.sendContacts(job.to, content.cards, options);
    case 'edit':
      await provider.editText(content.target, content.body);
      return undefined;
    case 'delete':
      await provider.deleteMessage(content.target);
      return undefined;
    case 'react':
      await provider.react(content.target, content.emoji);
      return undefined;
    case 'markRead':
      await provider.markRead(content.refs);
      return undefined;
  }
}

const paced = (job: OutboundJob) => job.content.kind !== 'markRead';

export interface SendContext {
  lane: Lane;
  /** Aborted when the connection's worker closes (a bulk wait gives its job back). */
  signal: AbortSignal;
  token?: string;
}

/**
 * Waits for the governor's turn of a bulk send, on the governor's clock. When the worker closes
 * mid-wait the job goes back to the delayed set for the rest of the wait (no attempt spent).
 */
async function awaitBulkTurn(
  app: AppContext,
  job: Job<OutboundJob>,
  provider: WhatsAppProvider,
  context: SendContext,
): Promise<void> {
  const clock = sendClock(app);
  const { signal, token } = context;
  for (;;) {
    // A turn is recorded when granted: take it only when the send can leave at once.
    if (provider.status() !== 'CONNECTED') throw new Error('ERR_WAPP_NOT_INITIALIZED');
    const now = clock.now();
    const decision = await takeBulkTurn(app, job.data, now);
    if (decision.send) return;
    const ms = Math.max(1, decision.waitUntil.getTime() - now.getTime());
    try {
      await clock.sleep(ms, signal);
    } catch (err) {
      if (!signal.aborted) throw err;
      await job.moveToDelayed(Date.now() + ms, token);
      throw new DelayedError();
    }
  }
}

/** Counts a bulk send's outcome; a failure to count must not make a sent message go again. */
async function recordOutcome(app: AppContext, job: OutboundJob, ok: boolean): Promise<void> {
  await recordBulkOutcome(app, job, ok, sendClock(app).now()).catch((err: unknown) =>
    logger.error({ err, whatsappId: job.whatsappId }, 'bulk outcome not recorded'),
  );
}

/** The processor of 'send' jobs, run by the lease holder's connection worker. */
export async function processSendJob(
  app: AppContext,
  job: Job<OutboundJob>,
  provider: WhatsAppProvider,
  context: SendContext = { lane: 'agent', signal: new AbortController().signal },
): Promise<SentMessage | null> {
  const data = job.data;
  const bulk = context.lane === 'bulk';
  try {
    if (provider.status() !== 'CONNECTED') throw new Error('ERR_WAPP_NOT_INITIALIZED');
    if (bulk) await awaitBulkTurn(app, job, provider, context);
    else if (paced(data)) {
      const wait = await takeSendToken(app, data.whatsappId);
      // Paced sends also get jitter, so a queue of messages does not leave like a metronome.
      if (wait > 0) await sleep(wait + randomInt(0, Math.max(1, Math.round(wait / 4))));
    }
    let sent: SentMessage | undefined;
    try {
      sent = await execute(app, provider, data);
    } catch (err) {
      if (bulk) await recordOutcome(app, data, false);
      throw err;
    }
    if (bulk) await recordOutcome(app, data, true);
    await notify(app, data, { ok: true, ...(sent && { sent }) });
    return sent ?? null;
  } catch (err) {
    if (err instanceof DelayedError) throw err;
    const attempts = job.opts.attempts ?? 1;
    if (err instanceof UnrecoverableError || job.attemptsMade + 1 >= attempts) {
      const error = err instanceof Error ? err.message : String(err);
      await notify(app, data, { ok: false, error });
    }
    throw err;
  }
}
