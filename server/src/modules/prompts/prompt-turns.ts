// The AI answering customers (issue 18 item 1). A queue or connection with a prompt takes the
// customer's message at routing's hand-off (`promptHandOff`): the ticket's row in `prompt_turns`
// records the newest message to answer and when (a short debounce, so several quick messages get
// one answer). A trigger (BullMQ, delayed) or the sweeper runs `runTurn`, which takes the row's
// lease (one completion at a time per ticket), builds the history, asks the model, sends the
// reply through the outgoing writer and applies the action. An agent's reply stops the AI for
// the ticket; a failing AI leaves the ticket waiting in its queue, the customer's message stored.
import { readFile } from 'node:fs/promises';
import { FEMALE_PROMPT_VOICES, TEXT_VOICE, type PromptVoice } from '@atende/shared';
import type { Job } from 'bullmq';
import type { AppContext } from '../../context.js';
import { createQueue, startWorker } from '../../jobs/bullmq.js';
import { logger } from '../../logger.js';
import { companyMediaPath, storeMedia } from '../../whatsapp/media.js';
import { openaiAzureSpeech, openaiHistory, type openai } from '../automation/index.js';
import type { DomainEvent } from '../changes/index.js';
import { sendOutgoing } from '../messages/index.js';
import type { RoutingContext } from '../routing/index.js';
import { closeTicketBySystem, setTicketQueue, transferTicketBySystem } from '../routing/index.js';
import { loadTicket } from '../tickets/index.js';
import { loadPrompt, promptClient, promptKey, type PromptRow } from './prompts.service.js';
import { recordUsage } from './usage.js';

/** Quick messages within this window get one answer. */
export const PROMPT_DEBOUNCE_MS = 2_500;
/** How long one completion may hold a ticket before another process may take it over. */
export const PROMPT_LEASE_MS = 120_000;
/** Attempts on a passing failure (rate limit, server down, timeout) before falling back. */
export const PROMPT_MAX_ATTEMPTS = 3;
/** The sweeper: turns whose trigger was lost (Redis down, a crash) run within this. */
export const PROMPT_SWEEP_MS = 5_000;
/** A customer's audio not downloaded yet: the turn waits this long, a few times. */
const AUDIO_WAIT_MS = 2_000;
const QUEUE = 'prompt-turns';

/** What the model is told besides the prompt: the structured answer it must give. */
export const ANSWER_INSTRUCTIONS =
  'Responda ao cliente no campo "reply". Em "action", use "transfer" quando o cliente pedir ' +
  'um atendente humano ou quando você não puder ajudar, "close" quando a conversa terminar, ' +
  'e "none" nos demais casos.';

interface TurnRow {
  ticketId: number;
  companyId: number;
  promptId: number;
  messageId: number;
  answeredMessageId: number;
  dueAt: Date;
  attempts: number;
  stoppedAt: Date | null;
}

const queues = new WeakMap<AppContext, ReturnType<typeof createQueue>>();
function triggerQueue(app: AppContext) {
  let queue = queues.get(app);
  if (!queue) queues.set(app, (queue = createQueue(app, QUEUE)));
  return queue;
}

/** A delayed trigger for the turn due at `dueAt` (the same firing twice is one job). */
async function trigger(app: AppContext, ticketId: number, dueAt: Date) {
  await triggerQueue(app).add(
    'turn',
    { ticketId },
    {
      jobId: `${ticketId}-${dueAt.getTime()}`,
      delay: Math.max(0, dueAt.getTime() - Date.now()),
      removeOnComplete: true,
      removeOnFail: 1_000,
    },
  );
}

/**
 * Routing's hand-off (`listeners.handOff`): a ticket whose queue or connection has a prompt of
 * the company, and whose AI has not stopped, is the AI's: the message is recorded for a turn.
 */
export async function promptHandOff(
  ctx: RoutingContext,
  target: { promptId: number | null; integrationId: number | null },
): Promise<boolean> {
  if (target.promptId == null || ctx.ticket.isGroup) return false;
  const prompt = await loadPrompt(ctx.app.ds, ctx.companyId, target.promptId);
  if (!prompt) return false;
  const dueAt = new Date(Date.now() + PROMPT_DEBOUNCE_MS);
  const [row] = (await ctx.app.ds.query(
    `INSERT INTO prompt_turns ("ticketId", "companyId", "promptId", "messageId", "dueAt")
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ("ticketId") DO UPDATE SET
       "promptId" = EXCLUDED."promptId",
       "messageId" = GREATEST(prompt_turns."messageId", EXCLUDED."messageId"),
       "dueAt" = EXCLUDED."dueAt", attempts = 0, "updatedAt" = now()
       WHERE prompt_turns."stoppedAt" IS NULL
     RETURNING "ticketId"`,
    [ctx.ticket.id, ctx.companyId, prompt.id, ctx.stored.message.id, dueAt],
  )) as { ticketId: number }[];
  // The AI stopped on this ticket (an agent, a transfer, a failure): routing goes on.
  if (!row) return false;
  await trigger(ctx.app, ctx.ticket.id, dueAt);
  return true;
}

/** The AI stops answering the ticket (an agent replied, it handed off, it failed). */
export async function stopTurns(
  app: AppContext,
  companyId: number,
  ticketId: number,
  reason: string,
): Promise<void> {
  await app.ds.query(
    `UPDATE prompt_turns SET "stoppedAt" = now(), "stopReason" = $3, "leaseUntil" = NULL,
            "updatedAt" = now()
      WHERE "ticketId" = $1 AND "companyId" = $2 AND "stoppedAt" IS NULL`,
    [ticketId, companyId, reason],
  );
}

/** The `prompts` consumer: an agent's reply (or accept greeting) ends the AI on the ticket. */
/** A run of stored messages: only agents' and greetings' stop the bot (the rest need nothing). */
export async function onMessagesStored(app: AppContext, events: DomainEvent<'message.stored'>[]) {
  for (const event of events) await onMessageStored(app, event);
}

export async function onMessageStored(app: AppContext, event: DomainEvent<'message.stored'>) {
  const { origin, ticketId } = event.payload;
  if (origin !== 'agent' && origin !== 'greeting') return;
  const [ticket] = (await app.ds.query('SELECT "companyId" FROM tickets WHERE id = $1', [
    ticketId,
  ])) as { companyId: number }[];
  if (ticket) await stopTurns(app, ticket.companyId, ticketId, 'agent');
}

/** Takes the ticket's turn when it is due, unanswered, not stopped and nobody holds it. */
async function claim(app: AppContext, ticketId: number): Promise<TurnRow | undefined> {
  const now = new Date();
  const [rows] = (await app.ds.query(
    `UPDATE prompt_turns SET "leaseUntil" = $2, attempts = attempts + 1, "updatedAt" = now()
      WHERE "ticketId" = $1 AND "stoppedAt" IS NULL AND "messageId" > "answeredMessageId"
        AND "dueAt" <= $3 AND ("leaseUntil" IS NULL OR "leaseUntil" < $3)
      RETURNING *`,
    [ticketId, new Date(now.getTime() + PROMPT_LEASE_MS), now],
  )) as [TurnRow[], number];
  return rows[0];
}

/** Gives the lease back; a message that came meanwhile gets its own trigger. */
async function release(
  app: AppContext,
  turn: TurnRow,
  changes: { answered?: number; retryAt?: Date } = {},
) {
  const [rows] = (await app.ds.query(
    `UPDATE prompt_turns SET "leaseUntil" = NULL,
            "answeredMessageId" = GREATEST("answeredMessageId", $2),
            "dueAt" = GREATEST("dueAt", $3),
            attempts = CASE WHEN $2 > 0 THEN 0 ELSE attempts END, "updatedAt" = now()
      WHERE "ticketId" = $1
      RETURNING "messageId", "answeredMessageId", "dueAt", "stoppedAt"`,
    [turn.ticketId, changes.answered ?? 0, changes.retryAt ?? new Date(0)],
  )) as [
    { messageId: number; answeredMessageId: number; dueAt: Date; stoppedAt: Date | null }[],
    number,
  ];
  const row = rows[0];
  if (row && !row.stoppedAt && row.messageId > row.answeredMessageId) {
    await trigger(app, turn.ticketId, new Date(row.dueAt));
  }
}

interface HistoryRow {
  id: number;
  fromMe: boolean;
  body: string;
  mediaType: string;
  mediaUrl: string | null;
  isDeleted: boolean;
  createdAt: Date;
  transcription: string | null;
}

/** The ticket's messages up to the one answered, newest first, enough for the window. */
async function historyRows(app: AppContext, turn: TurnRow, prompt: PromptRow) {
  return (await app.ds.query(
    `SELECT m.id, m."fromMe", m.body, m."mediaType", m."mediaUrl", m."isDeleted", m."createdAt",
            t.text AS transcription
       FROM messages m LEFT JOIN prompt_transcriptions t ON t."messageId" = m.id
      WHERE m."ticketId" = $1 AND m."companyId" = $2 AND m.id <= $3
      ORDER BY m."createdAt" DESC, m.id DESC LIMIT $4`,
    [turn.ticketId, turn.companyId, turn.messageId, prompt.maxMessages * 2 + 10],
  )) as HistoryRow[];
}

/**
 * Speech to text for the customer's audios in the window that have none yet, stored once.
 * Answers false when an audio is not downloaded yet (the turn waits for it).
 */
async function transcribeAudios(
  app: AppContext,
  client: openai.OpenAiClient,
  turn: TurnRow,
  rows: HistoryRow[],
): Promise<boolean> {
  for (const row of rows) {
    if (row.fromMe || row.mediaType !== 'audio' || row.transcription !== null || row.isDeleted)
      continue;
    const file = row.mediaUrl?.replace(/^\/media\//, '');
    const full = file ? companyMediaPath(app, turn.companyId, file) : undefined;
    if (!full) {
      if (row.id === turn.messageId) return false;
      continue;
    }
    const heard = await client.transcribe({
      audio: await readFile(full),
      fileName: file!,
      mimeType: file!.endsWith('.mp3') ? 'audio/mpeg' : 'audio/ogg',
      language: 'pt',
    });
    if (!heard.ok) {
      logger.warn({ ticketId: turn.ticketId, code: heard.code }, 'transcription failed');
      continue;
    }
    row.transcription = heard.value;
    await app.ds.query(
      `INSERT INTO prompt_transcriptions ("messageId", "companyId", text) VALUES ($1, $2, $3)
       ON CONFLICT ("messageId") DO NOTHING`,
      [row.id, turn.companyId, heard.value],
    );
  }
  return true;
}

/** The queues the model may hand the customer to: the prompt's and the connection's. */
async function transferQueues(app: AppContext, prompt: PromptRow, whatsappId: number | null) {
  return (await app.ds.query(
    `SELECT q.id, q.name FROM queues q
      WHERE q."companyId" = $1 AND (q.id = $2 OR q.id IN
        (SELECT "queueId" FROM whatsapp_queues WHERE "whatsappId" = $3))
      ORDER BY (q.id = $2) DESC, q."orderQueue" NULLS LAST, q.name`,
    [prompt.companyId, prompt.queueId, whatsappId],
  )) as { id: number; name: string }[];
}

/** OpenAI's voices standing in for the Azure ones when the prompt has no Azure key. */
const openAiVoiceOf = (voice: string) =>
  FEMALE_PROMPT_VOICES.includes(voice as PromptVoice) ? 'nova' : 'onyx';

/** The reply as a voice note (Ogg/Opus), or undefined to send it as text. */
async function speak(
  app: AppContext,
  prompt: PromptRow,
  client: openai.OpenAiClient,
  text: string,
) {
  if (prompt.voice === TEXT_VOICE) return undefined;
  let spoken;
  if (prompt.voiceKeySealed) {
    const key = promptKey(app, prompt, 'voiceKey');
    if (!key.ok) return undefined;
    spoken = await openaiAzureSpeech
      .createAzureSpeechClient({ key: key.value, region: prompt.voiceRegion })
      .speak(text, prompt.voice);
  } else {
    spoken = await client.speak(text, openAiVoiceOf(prompt.voice));
  }
  if (!spoken.ok) {
    logger.warn({ promptId: prompt.id, code: spoken.code }, 'speech failed; answering in text');
    return undefined;
  }
  return storeMedia(app, prompt.companyId, spoken.value.audio, 'audio/ogg');
}

const PASSING = new Set([
  'ERR_INTEGRATION_RATE_LIMITED',
  'ERR_INTEGRATION_UNAVAILABLE',
  'ERR_INTEGRATION_TIMEOUT',
  'ERR_INTEGRATION_UNREACHABLE',
]);

/** The AI gives up on the ticket: it waits in its queue for an agent (the message is stored). */
async function fallBack(
  app: AppContext,
  turn: TurnRow,
  prompt: PromptRow | undefined,
  why: string,
) {
  logger.warn({ ticketId: turn.ticketId, why }, 'AI prompt failed; the ticket goes to its queue');
  await stopTurns(app, turn.companyId, turn.ticketId, 'failure');
  const ticket = await loadTicket(app.ds, turn.companyId, turn.ticketId).catch(() => undefined);
  if (!ticket || ticket.userId != null || ticket.status !== 'pending') return;
  await setTicketQueue(
    app,
    turn.companyId,
    turn.ticketId,
    ticket.queueId ?? prompt?.queueId ?? null,
    false,
  );
}

/** One turn of the AI on a ticket (see the top of this file). */
export async function runTurn(app: AppContext, ticketId: number): Promise<void> {
  const turn = await claim(app, ticketId);
  if (!turn) return;
  const prompt = await loadPrompt(app.ds, turn.companyId, turn.promptId);
  if (!prompt) return fallBack(app, turn, prompt, 'prompt gone');
  const ticket = await loadTicket(app.ds, turn.companyId, ticketId).catch(() => undefined);
  if (!ticket || ticket.userId != null || ticket.status !== 'pending') {
    await stopTurns(app, turn.companyId, ticketId, 'agent');
    return;
  }
  const key = promptKey(app, prompt, 'apiKey');
  if (!key.ok) return fallBack(app, turn, prompt, key.code);
  const client = promptClient(app, prompt, key.value);

  const rows = await historyRows(app, turn, prompt);
  const current = rows.find((r) => r.id === turn.messageId);
  if (!current) return fallBack(app, turn, prompt, 'message gone');
  if (!(await transcribeAudios(app, client, turn, rows))) {
    if (turn.attempts < PROMPT_MAX_ATTEMPTS + 2) {
      return release(app, turn, { retryAt: new Date(Date.now() + AUDIO_WAIT_MS) });
    }
  }
  const turns = openaiHistory.buildHistory({
    systemPrompt: `${prompt.prompt}\n\n${ANSWER_INSTRUCTIONS}`,
    messages: rows,
    current,
    maxMessages: prompt.maxMessages,
  });
  const queues = await transferQueues(app, prompt, ticket.whatsappId);
  const completed = await client.complete({
    turns,
    maxTokens: prompt.maxTokens,
    temperature: Number(prompt.temperature),
    queues,
  });
  if (!completed.ok) {
    if (PASSING.has(completed.code) && turn.attempts < PROMPT_MAX_ATTEMPTS) {
      const wait = completed.retryAfterMs ?? 2_000 * 2 ** (turn.attempts - 1);
      return release(app, turn, { retryAt: new Date(Date.now() + Math.min(wait, 60_000)) });
    }
    return fallBack(app, turn, prompt, completed.code);
  }
  const { answer, usage } = completed.value;
  await recordUsage(app, prompt, usage);

  // An agent took the ticket while the model was thinking: the answer is dropped.
  const [still] = (await app.ds.query(
    `SELECT 1 FROM prompt_turns WHERE "ticketId" = $1 AND "stoppedAt" IS NULL`,
    [ticketId],
  )) as unknown[];
  if (!still) return;

  const reply = answer.reply.trim();
  if (reply) {
    const voice = await speak(app, prompt, client, reply);
    const clientId = `ai:${ticketId}:${turn.messageId}`;
    await sendOutgoing(app, turn.companyId, {
      ticketId,
      body: voice ? '' : reply,
      clientId: voice ? `${clientId}:v` : clientId,
      userId: null,
      origin: 'ai',
      ...(voice && {
        media: {
          path: `${turn.companyId}/${voice.file}`,
          url: voice.url,
          mimetype: 'audio/ogg; codecs=opus',
          voiceNote: true,
        },
      }),
    });
  }
  await release(app, turn, { answered: turn.messageId });
  if (answer.action.type === 'transfer') {
    await stopTurns(app, turn.companyId, ticketId, 'transfer');
    await transferTicketBySystem(app, turn.companyId, ticketId, answer.action.queueId);
  } else if (answer.action.type === 'close') {
    await stopTurns(app, turn.companyId, ticketId, 'close');
    await closeTicketBySystem(app, turn.companyId, ticketId);
  }
}

/** Turns due whose trigger was lost (a crash, Redis down), or whose lease ran out. */
export async function sweepTurns(app: AppContext): Promise<number> {
  const now = new Date();
  const rows = (await app.ds.query(
    `SELECT "ticketId" FROM prompt_turns
      WHERE "stoppedAt" IS NULL AND "messageId" > "answeredMessageId" AND "dueAt" <= $1
        AND ("leaseUntil" IS NULL OR "leaseUntil" < $1)
      ORDER BY "dueAt" LIMIT 100`,
    [now],
  )) as { ticketId: number }[];
  for (const row of rows) await runTurn(app, row.ticketId);
  return rows.length;
}

/** The worker role: the trigger worker and the sweeper. */
export async function startPromptTurns(app: AppContext) {
  const worker = startWorker(
    app,
    QUEUE,
    async (job: Job) => {
      const ticketId = Number((job.data as { ticketId?: unknown }).ticketId);
      if (Number.isInteger(ticketId) && ticketId > 0) await runTurn(app, ticketId);
    },
    4,
  );
  let sweeping: Promise<unknown> | undefined;
  const tick = () => {
    sweeping ??= sweepTurns(app)
      .catch((err: unknown) => logger.error({ err }, 'prompt sweep failed'))
      .finally(() => (sweeping = undefined));
  };
  const interval = setInterval(tick, PROMPT_SWEEP_MS);
  return {
    close: async () => {
      clearInterval(interval);
      await sweeping;
      await worker.close();
      await queues.get(app)?.close();
      queues.delete(app);
    },
  };
}
