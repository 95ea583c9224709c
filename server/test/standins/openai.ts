import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { formOf, jsonOf, startStandin, type Answer, type Received } from './server.js';

const run = promisify(execFile);

/**
 * A stand-in for an OpenAI-compatible server (`/v1/chat/completions`, `/v1/audio/transcriptions`,
 * `/v1/audio/speech`, `/v1/models`) as OpenAI documents them. Its "model" is a rule that reads
 * what it was sent: it answers with the schema the request gave, replying
 * `Você disse: <last user text> (<n> mensagens)`, transferring to the first queue it was offered
 * when the text asks for "atendente" and closing on "tchau". Audio it transcribes by a table the
 * test fills; speech is real Ogg/Opus made by ffmpeg.
 *
 * A wrong key gets OpenAI's 401 answer, echoing the key in full (as a hostile server could).
 */
export interface OpenAiStandinOptions {
  apiKey: string;
  models?: string[];
  /** Overrides the model's content for a completion (malformed answers, refusals). */
  content?: (
    request: CompletionRequest,
  ) => string | { refusal: string } | { truncated: string } | null;
  /** Leaves `usage` out of the answer (as some local servers do). */
  omitUsage?: boolean;
  /** Answers speech as MP3 whatever was asked (a server that ignores `response_format`). */
  speechAlwaysMp3?: boolean;
}

interface CompletionRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: any } };
  [key: string]: unknown;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

export async function startOpenAiStandin(options: OpenAiStandinOptions) {
  const transcripts = new Map<string, string>();
  const models = options.models ?? ['gpt-test'];
  const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  const unauthorized = (request: Received): Answer | null => {
    const header = String(request.headers.authorization ?? '');
    if (header === `Bearer ${options.apiKey}`) return null;
    const given = header.replace(/^Bearer /, '');
    return {
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${given}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    };
  };

  const invalid = (message: string): Answer => ({
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param: null, code: null } },
  });

  function completion(request: CompletionRequest): Answer {
    if (!models.includes(request.model)) {
      return {
        status: 404,
        body: {
          error: {
            message: `The model '${request.model}' does not exist`,
            code: 'model_not_found',
          },
        },
      };
    }
    if (
      request.response_format?.type !== 'json_schema' ||
      request.response_format.json_schema.strict !== true
    ) {
      return invalid('expected a strict json_schema response_format');
    }
    const userTurns = request.messages.filter((m) => m.role === 'user');
    const last = userTurns.at(-1)?.content ?? '';
    const variants: any[] = request.response_format.json_schema.schema.properties.action.anyOf;
    const transfer = variants.find((v) => v.properties.type.enum[0] === 'transfer');
    let action: Record<string, unknown> = { type: 'none' };
    if (/atendente/i.test(last) && transfer)
      action = { type: 'transfer', queueId: transfer.properties.queueId.enum[0] };
    else if (/tchau/i.test(last)) action = { type: 'close' };
    const answer = JSON.stringify({
      reply: `Você disse: ${last} (${request.messages.length} mensagens)`,
      action,
    });
    const custom = options.content?.(request);
    let message: Record<string, unknown> = { role: 'assistant', content: answer, refusal: null };
    let finish = 'stop';
    if (typeof custom === 'string' || custom === null)
      message = { role: 'assistant', content: custom, refusal: null };
    else if (custom && 'refusal' in custom)
      message = { role: 'assistant', content: null, refusal: custom.refusal };
    else if (custom && 'truncated' in custom) {
      message = { role: 'assistant', content: custom.truncated, refusal: null };
      finish = 'length';
    }
    const promptTokens = request.messages.reduce((n, m) => n + words(m.content), 0);
    const completionTokens = words(String(message.content ?? ''));
    return {
      status: 200,
      body: {
        id: `chatcmpl-${Date.now()}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
        ...(options.omitUsage
          ? {}
          : {
              usage: {
                prompt_tokens: promptTokens,
                completion_tokens: completionTokens,
                total_tokens: promptTokens + completionTokens,
              },
            }),
      },
    };
  }

  async function transcription(request: Received): Promise<Answer> {
    const form = await formOf(request);
    const file = form.get('file');
    if (!(file instanceof Blob) || typeof form.get('model') !== 'string')
      return invalid('file and model are required');
    const text = transcripts.get(digest(new Uint8Array(await file.arrayBuffer())));
    if (text === undefined) return invalid('Audio file might be corrupted or unsupported');
    return { status: 200, body: { text } };
  }

  async function speech(request: Received): Promise<Answer> {
    const body = jsonOf(request) as {
      model?: string;
      input?: string;
      voice?: string;
      response_format?: string;
    };
    if (!body.model || !body.input || !body.voice)
      return invalid('model, input and voice are required');
    const opus = body.response_format === 'opus' && !options.speechAlwaysMp3;
    const codec = opus ? ['-c:a', 'libopus', '-f', 'ogg'] : ['-c:a', 'libmp3lame', '-f', 'mp3'];
    const seconds = Math.min(2, 0.05 * body.input.length).toFixed(2);
    const { stdout } = await run(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=440:duration=${seconds}`,
        ...codec,
        'pipe:1',
      ],
      { encoding: 'buffer', maxBuffer: 8 * 1024 * 1024 },
    );
    return {
      status: 200,
      headers: { 'content-type': opus ? 'audio/ogg' : 'audio/mpeg' },
      body: stdout,
    };
  }

  const standin = await startStandin(async (request) => {
    const denied = unauthorized(request);
    if (denied) return denied;
    const path = request.path.split('?')[0];
    if (request.method === 'GET' && path === '/v1/models') {
      return {
        status: 200,
        body: {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', owned_by: 'standin' })),
        },
      };
    }
    if (request.method !== 'POST')
      return { status: 405, body: { error: { message: 'method not allowed' } } };
    if (path === '/v1/chat/completions') return completion(jsonOf(request) as CompletionRequest);
    if (path === '/v1/audio/transcriptions') return transcription(request);
    if (path === '/v1/audio/speech') return speech(request);
    return { status: 404, body: { error: { message: `Unknown path ${path}` } } };
  });

  return {
    ...standin,
    baseUrl: `${standin.url}/v1`,
    /** The text the stand-in hears in these exact audio bytes. */
    knowAudio(bytes: Uint8Array, text: string) {
      transcripts.set(digest(bytes), text);
    },
  };
}
