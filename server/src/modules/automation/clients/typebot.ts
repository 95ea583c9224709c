import { z } from 'zod';
import { sendJson, trimBase, type HttpCall } from './http.js';
import type { ClientFailure, Result } from './result.js';

/**
 * A client of Typebot's v1 chat API (issue 18 item 2): `startChat` and `continueChat`, asking
 * for markdown bubbles. The answers are parsed loosely (Typebot adds fields between versions):
 * only what we use is checked.
 */
export interface TypebotConfig {
  /** The Typebot viewer's base URL (`https://typebot.example.com`); `/api/v1` is added. */
  baseUrl: string;
  /** The bot's public id (the integration's `typebotSlug`). */
  publicId: string;
  /** Only for bots that are not public. */
  apiToken?: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

const bubble = z.looseObject({ id: z.string().optional(), type: z.string(), content: z.unknown() });
export type TypebotBubble = z.infer<typeof bubble>;

const choiceItem = z.looseObject({
  id: z.string().optional(),
  content: z.string().optional(),
  title: z.string().optional(),
  value: z.string().optional(),
});
const input = z.looseObject({
  id: z.string().optional(),
  type: z.string(),
  items: z.array(choiceItem).optional(),
  options: z.looseObject({ isMultipleChoice: z.boolean().optional() }).nullish(),
});
export type TypebotInput = z.infer<typeof input>;

const clientSideAction = z.looseObject({
  type: z.string().optional(),
  lastBubbleBlockId: z.string().optional(),
  wait: z.looseObject({ secondsToWaitFor: z.union([z.number(), z.string()]) }).optional(),
});
export type TypebotAction = z.infer<typeof clientSideAction>;

const chatAnswer = z.looseObject({
  messages: z.array(bubble).default([]),
  input: input.nullish(),
  clientSideActions: z.array(clientSideAction).nullish(),
});
const startAnswer = chatAnswer.extend({ sessionId: z.string().min(1) });

export type TypebotChatAnswer = z.infer<typeof chatAnswer>;
export type TypebotStartAnswer = z.infer<typeof startAnswer>;

/**
 * Typebot says the session is gone: `continueChat` answers 404 "Session not found." or
 * "Session expired. You need to start a new session." (older servers used 400 for the latter).
 */
export const isSessionGone = (f: ClientFailure): boolean =>
  f.service === 'typebot' && (f.status === 404 || (f.status === 400 && /session/i.test(f.message)));

export function createTypebotClient(config: TypebotConfig) {
  const base = `${trimBase(config.baseUrl)}/api/v1`;
  const secrets = config.apiToken ? [config.apiToken] : [];
  const headers = {
    'content-type': 'application/json',
    ...(config.apiToken ? { authorization: `Bearer ${config.apiToken}` } : {}),
  };
  const call = (path: string, body: unknown): HttpCall => ({
    service: 'typebot',
    url: `${base}${path}`,
    headers,
    body: JSON.stringify(body),
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    secrets,
  });

  /** Starts a session; `message` answers the flow's first input at once (used for replay). */
  function startChat(
    options: { message?: string; prefilledVariables?: Record<string, string> } = {},
  ): Promise<Result<TypebotStartAnswer>> {
    return sendJson(
      call(`/typebots/${encodeURIComponent(config.publicId)}/startChat`, {
        ...(options.message !== undefined
          ? { message: { type: 'text', text: options.message } }
          : {}),
        ...(options.prefilledVariables && Object.keys(options.prefilledVariables).length > 0
          ? { prefilledVariables: options.prefilledVariables }
          : {}),
        textBubbleContentFormat: 'markdown',
      }),
      startAnswer,
    );
  }

  function continueChat(sessionId: string, message: string): Promise<Result<TypebotChatAnswer>> {
    return sendJson(
      call(`/sessions/${encodeURIComponent(sessionId)}/continueChat`, {
        message: { type: 'text', text: message },
        textBubbleContentFormat: 'markdown',
      }),
      chatAnswer,
    );
  }

  return { startChat, continueChat };
}

export type TypebotClient = ReturnType<typeof createTypebotClient>;
