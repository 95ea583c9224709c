import { z } from 'zod';
import { parseJson, send, sendJson, statusFailure, trimBase, type HttpCall } from './http.js';
import type { ChatTurn } from './openai-history.js';
import { failure, ok, type Result } from './result.js';

/**
 * A client of an OpenAI-compatible API (issue 18 item 1): chat completions with structured
 * output, transcription and speech. One client per prompt: its base URL, key and models.
 * Every call answers a `Result`; nothing here throws or logs.
 */
export interface OpenAiConfig {
  /** `https://api.openai.com/v1` or any compatible server (a local one works). */
  baseUrl: string;
  apiKey: string;
  model: string;
  transcriptionModel?: string;
  speechModel?: string;
  /** OpenAI documents `max_completion_tokens`; some compatible servers know only `max_tokens`. */
  tokenLimitField?: 'max_completion_tokens' | 'max_tokens';
  timeoutMs?: number;
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_TRANSCRIPTION_MODEL = 'whisper-1';
export const OPENAI_DEFAULT_SPEECH_MODEL = 'tts-1';
/** The documented limit of `/audio/speech`'s input. */
export const SPEECH_MAX_CHARACTERS = 4096;
const DEFAULT_TIMEOUT_MS = 30_000;
const TRANSCRIPTION_TIMEOUT_MS = 60_000;
/** The schema name the model is asked to answer with. */
export const ANSWER_SCHEMA_NAME = 'atende_answer';

export const assistantActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('transfer'), queueId: z.number().int().positive() }),
  z.object({ type: z.literal('close') }),
]);
export const assistantAnswerSchema = z.object({
  reply: z.string(),
  action: assistantActionSchema,
});
export type AssistantAction = z.infer<typeof assistantActionSchema>;
export type AssistantAnswer = z.infer<typeof assistantAnswerSchema>;

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface Completion {
  answer: AssistantAnswer;
  /** Null when the server did not report usage (some local servers). */
  usage: Usage | null;
  model: string;
}

export interface CompletionInput {
  turns: ChatTurn[];
  maxTokens: number;
  temperature: number;
  /** The queues the model may transfer to; none means it cannot transfer. */
  queues: readonly { id: number; name: string }[];
}

const completionAnswer = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().int().nonnegative(),
      completion_tokens: z.number().int().nonnegative(),
      total_tokens: z.number().int().nonnegative(),
    })
    .nullish(),
});

const transcriptionAnswer = z.object({ text: z.string() });
const modelsAnswer = z.object({ data: z.array(z.object({ id: z.string() })) });

const actionVariant = (type: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { type: { type: 'string', enum: [type] }, ...extra },
  required: ['type', ...Object.keys(extra)],
  additionalProperties: false,
});

/**
 * The JSON schema of the answer (`response_format: json_schema`, strict): a reply and one
 * action. Transfer is offered only when there are queues, limited to their ids, named in
 * the description so the model knows which is which.
 */
export function answerJsonSchema(queues: CompletionInput['queues']) {
  const variants = [actionVariant('none'), actionVariant('close')];
  if (queues.length > 0) {
    const names = queues.map((q) => `${q.id} = ${q.name}`).join('; ');
    variants.splice(
      1,
      0,
      actionVariant('transfer', {
        queueId: {
          type: 'integer',
          enum: queues.map((q) => q.id),
          description: `The queue to hand the customer to: ${names}`,
        },
      }),
    );
  }
  return {
    type: 'json_schema',
    json_schema: {
      name: ANSWER_SCHEMA_NAME,
      strict: true,
      schema: {
        type: 'object',
        properties: {
          reply: { type: 'string', description: 'The message sent to the customer.' },
          action: {
            description:
              'none: keep talking; transfer: hand the customer to a human queue; close: the conversation is over.',
            anyOf: variants,
          },
        },
        required: ['reply', 'action'],
        additionalProperties: false,
      },
    },
  } as const;
}

/**
 * The model's message content as an answer. A truncated, refused, non-JSON or off-schema
 * content, or a transfer to a queue it was not offered, is a BAD_ANSWER failure.
 */
export function parseAssistantContent(
  content: string | null | undefined,
  queues: CompletionInput['queues'],
): Result<AssistantAnswer> {
  const bad = (why: string) => failure('openai', 'ERR_INTEGRATION_BAD_ANSWER', why, []);
  if (!content) return bad('the model answered no content');
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return bad('the model answered content that is not JSON');
  }
  const parsed = assistantAnswerSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return bad(
      `the model's answer does not fit the schema (${issue?.path.join('.') || 'answer'}: ${issue?.message})`,
    );
  }
  const { action } = parsed.data;
  if (action.type === 'transfer' && !queues.some((q) => q.id === action.queueId)) {
    return bad(`the model chose queue ${action.queueId}, which it was not offered`);
  }
  return ok(parsed.data);
}

export interface TranscriptionInput {
  audio: Uint8Array;
  fileName: string;
  mimeType: string;
  /** ISO-639-1 hint ('pt'), optional. */
  language?: string;
}

export interface Speech {
  /** An Ogg container with Opus audio: a WhatsApp voice note as is. */
  audio: Buffer;
  mimeType: 'audio/ogg; codecs=opus';
}

/**
 * Sends a text-to-speech call (OpenAI's or Azure's) and keeps the answer only when it is a voice
 * note: a 2xx whose body is Ogg (every Ogg page starts with "OggS"; an MP3 or a JSON error is not).
 */
export async function speechCall(call: HttpCall): Promise<Result<Speech>> {
  const sent = await send(call);
  if (!sent.ok) return sent;
  if (sent.value.status < 200 || sent.value.status > 299) return statusFailure(call, sent.value);
  if (sent.value.bytes.subarray(0, 4).toString('latin1') !== 'OggS') {
    return failure(
      'openai',
      'ERR_INTEGRATION_BAD_ANSWER',
      'the speech answer is not Ogg audio',
      call.secrets,
    );
  }
  return ok({ audio: sent.value.bytes, mimeType: 'audio/ogg; codecs=opus' });
}

export function createOpenAiClient(config: OpenAiConfig) {
  const base = trimBase(config.baseUrl);
  const secrets = [config.apiKey];
  const auth = { authorization: `Bearer ${config.apiKey}` };
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  /** Chat completion with structured output; the usage comes back for metering. */
  async function complete(input: CompletionInput): Promise<Result<Completion>> {
    const call: HttpCall = {
      service: 'openai',
      url: `${base}/chat/completions`,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: config.model,
        messages: input.turns,
        temperature: input.temperature,
        [config.tokenLimitField ?? 'max_completion_tokens']: input.maxTokens,
        response_format: answerJsonSchema(input.queues),
      }),
      timeoutMs,
      secrets,
    };
    const answered = await sendJson(call, completionAnswer);
    if (!answered.ok) return answered;
    const choice = answered.value.choices[0]!;
    if (choice.message.refusal) {
      return failure(
        'openai',
        'ERR_INTEGRATION_BAD_ANSWER',
        'the model refused to answer',
        secrets,
      );
    }
    if (choice.finish_reason === 'length') {
      return failure(
        'openai',
        'ERR_INTEGRATION_BAD_ANSWER',
        `the answer was cut at ${input.maxTokens} tokens (raise maxTokens)`,
        secrets,
      );
    }
    const answer = parseAssistantContent(choice.message.content, input.queues);
    if (!answer.ok) return answer;
    const u = answered.value.usage;
    return ok({
      answer: answer.value,
      usage: u
        ? {
            promptTokens: u.prompt_tokens,
            completionTokens: u.completion_tokens,
            totalTokens: u.total_tokens,
          }
        : null,
      model: answered.value.model ?? config.model,
    });
  }

  /** Speech to text (`/audio/transcriptions`, multipart). */
  async function transcribe(input: TranscriptionInput): Promise<Result<string>> {
    const form = new FormData();
    form.set(
      'file',
      new Blob([new Uint8Array(input.audio)], { type: input.mimeType }),
      input.fileName,
    );
    form.set('model', config.transcriptionModel ?? OPENAI_DEFAULT_TRANSCRIPTION_MODEL);
    form.set('response_format', 'json');
    if (input.language) form.set('language', input.language);
    const answered = await sendJson(
      {
        service: 'openai',
        url: `${base}/audio/transcriptions`,
        headers: auth,
        body: form,
        timeoutMs: config.timeoutMs ?? TRANSCRIPTION_TIMEOUT_MS,
        secrets,
      },
      transcriptionAnswer,
    );
    return answered.ok ? ok(answered.value.text.trim()) : answered;
  }

  /** Text to speech (`/audio/speech`, `response_format: 'opus'`): Ogg/Opus bytes. */
  async function speak(text: string, voice: string): Promise<Result<Speech>> {
    if (text.length > SPEECH_MAX_CHARACTERS) {
      return failure(
        'openai',
        'ERR_INTEGRATION_REJECTED',
        `speech input over ${SPEECH_MAX_CHARACTERS} characters`,
        secrets,
      );
    }
    const call: HttpCall = {
      service: 'openai',
      url: `${base}/audio/speech`,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: config.speechModel ?? OPENAI_DEFAULT_SPEECH_MODEL,
        input: text,
        voice,
        response_format: 'opus',
      }),
      timeoutMs,
      secrets,
    };
    return speechCall(call);
  }

  /**
   * Checks the key and that the model exists (`GET /models`), for validation on save:
   * a bad key is AUTH, an unknown model NOT_FOUND.
   */
  async function check(): Promise<Result<void>> {
    const call: HttpCall = {
      service: 'openai',
      url: `${base}/models`,
      method: 'GET',
      headers: auth,
      timeoutMs,
      secrets,
    };
    const sent = await send(call);
    if (!sent.ok) return sent;
    if (sent.value.status < 200 || sent.value.status > 299) return statusFailure(call, sent.value);
    const models = parseJson(call, sent.value, modelsAnswer);
    if (!models.ok) return models;
    if (!models.value.data.some((m) => m.id === config.model)) {
      return failure(
        'openai',
        'ERR_INTEGRATION_NOT_FOUND',
        `the server has no model "${config.model}"`,
        secrets,
      );
    }
    return ok(undefined);
  }

  return { complete, transcribe, speak, check };
}

export type OpenAiClient = ReturnType<typeof createOpenAiClient>;
