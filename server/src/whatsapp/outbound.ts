// Sending: features enqueue an OutboundJob; the process holding the connection's lease sends it
// at the connection's pace (a token bucket with jitter, since bulk sending gets numbers banned),
// retrying with backoff while the session reconnects. The final outcome goes to the handlers.
import { randomInt } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { UnrecoverableError, type Job } from 'bullmq';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { connectionQueue } from './connection-queue.js';
import { outboundResultHandlers, type OutboundJob, type OutboundResult } from './hooks.js';
import { mediaKindOf, resolveMediaPath, toVoiceNote } from './media.js';
import type { SentMessage, WhatsAppProvider } from './port.js';

/** Retries cover a reconnect with backoff: 2 s, 4 s ... about half an hour in all. */
export const OUTBOUND_ATTEMPTS = 10;

/**
 * Queues a send on its connection. With `waMessageId` the job id is derived from it, so a
 * repeated enqueue of the same message is one job. Returns the job id.
 */
export async function enqueueOutbound(app: AppContext, job: OutboundJob): Promise<string> {
  const queue = connectionQueue(app, job.whatsappId);
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
  for (const handler of outboundResultHandlers) {
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

/** The processor of 'send' jobs, run by the lease holder's connection worker. */
export async function processSendJob(
  app: AppContext,
  job: Job<OutboundJob>,
  provider: WhatsAppProvider,
): Promise<SentMessage | null> {
  const data = job.data;
  try {
    if (provider.status() !== 'CONNECTED') throw new Error('ERR_WAPP_NOT_INITIALIZED');
    if (paced(data)) {
      const wait = await takeSendToken(app, data.whatsappId);
      // Paced sends also get jitter, so a queue of messages does not leave like a metronome.
      if (wait > 0) await sleep(wait + randomInt(0, Math.max(1, Math.round(wait / 4))));
    }
    const sent = await execute(app, provider, data);
    await notify(app, data, { ok: true, ...(sent && { sent }) });
    return sent ?? null;
  } catch (err) {
    const attempts = job.opts.attempts ?? 1;
    if (err instanceof UnrecoverableError || job.attemptsMade + 1 >= attempts) {
      const error = err instanceof Error ? err.message : String(err);
      await notify(app, data, { ok: false, error });
    }
    throw err;
  }
}
