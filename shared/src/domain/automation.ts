import { z } from 'zod';

/**
 * Constants and contracts of AI prompts and queue integrations (secondary §3, §9; issue 18)
 * that the server and the clients both read.
 */

/** Secondary §9: a new prompt answers in text, 100 tokens, temperature 1, 10 messages of context. */
export const PROMPT_DEFAULTS = {
  voice: 'texto',
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
} as const;

/** The prompt's `voice` that means "answer in text" (secondary §9). */
export const TEXT_VOICE = PROMPT_DEFAULTS.voice;

/** Secondary §9: Typebot waits 1000 ms between bubbles; a session expires after 1 minute idle. */
export const TYPEBOT_DEFAULTS = {
  delayMessageMs: 1000,
  expiresMinutes: 1,
} as const;

/** Secondary §3: the four integration types and the three Dialogflow languages. */
export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;
export type DialogflowLanguage = (typeof DIALOGFLOW_LANGUAGES)[number];

/** The version in every webhook payload (`version`); a breaking change bumps it. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

const webhookContact = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
});

const webhookTicket = z.object({
  id: z.number().int(),
  uuid: z.string(),
  status: z.string(),
  queueId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  whatsappId: z.number().int().nullable(),
});

const webhookMessage = z.object({
  id: z.number().int(),
  wid: z.string(),
  fromMe: z.boolean(),
  body: z.string(),
  mediaType: z.string(),
  /** A link the receiver may download the media from (signed, time-limited), or null. */
  mediaUrl: z.string().nullable(),
  createdAt: z.string(),
});

/**
 * What a webhook or n8n integration receives (docs/webhooks.md). `chatInput` and `sessionId`
 * are the names n8n's AI Agent node reads without mapping. Never a secret in it.
 */
export const webhookPayloadSchema = z.object({
  version: z.literal(WEBHOOK_PAYLOAD_VERSION),
  event: z.enum(['message.received']),
  /** Same as the `webhook-id` header: one id per delivery, kept across retries. */
  id: z.string(),
  occurredAt: z.string(),
  companyId: z.number().int(),
  integrationId: z.number().int(),
  sessionId: z.string(),
  chatInput: z.string(),
  ticket: webhookTicket,
  contact: webhookContact,
  message: webhookMessage,
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** One thing the receiver asks us to do after a synchronous reply. */
export const webhookReplyActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('transfer'), queueId: z.number().int().positive() }),
  z.object({ type: z.literal('close') }),
  z.object({ type: z.literal('tag'), tagId: z.number().int().positive() }),
]);
export type WebhookReplyAction = z.infer<typeof webhookReplyActionSchema>;

/** A text to send to the customer; `mediaUrl` makes it a media message with `body` as caption. */
export const webhookReplyMessageSchema = z.object({
  body: z.string().max(4096).default(''),
  mediaUrl: z.url({ protocol: /^https?$/ }).optional(),
});

/** A synchronous reply ('Respond to Webhook' in n8n): messages to send, then actions. */
export const webhookReplySchema = z.object({
  messages: z.array(webhookReplyMessageSchema).max(20).default([]),
  actions: z.array(webhookReplyActionSchema).max(10).default([]),
});
export type WebhookReply = z.infer<typeof webhookReplySchema>;
