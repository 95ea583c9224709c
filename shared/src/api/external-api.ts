import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { idParams, idSchema, lineSchema, textSchema, wireDate, wireInt } from './common.js';

/**
 * The external messages API (secondary §2, §5, §7; issue 18 item 3): other systems send WhatsApp
 * messages through a connection, authenticated by the connection's token (`Authorization:
 * Bearer <token>`). An `Idempotency-Key` header makes a repeated call send once.
 */

/** Shortest token a connection may have (a shorter one is refused on save). */
export const CONNECTION_TOKEN_MIN_LENGTH = 16;

/** Longest `Idempotency-Key` accepted. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

/** The number as the test form takes it: country code, area code and number, no mask. */
export const externalNumber = lineSchema(40)
  .trim()
  .transform((v) => v.replace(/[\s()+-]/g, ''))
  .pipe(
    z
      .string()
      .min(1, 'Obrigatório')
      .regex(/^\d{8,15}$/, 'Número inválido: use DDI, DDD e número, só dígitos'),
  );

export const externalSendBody = z.object({
  number: externalNumber,
  /** The text; with media, the first file's caption (the test form sends the file's name). */
  body: textSchema(4096).trim().default(''),
});
export type ExternalSendBody = z.infer<typeof externalSendBody>;

/**
 * What the route reads before the token is checked: a multipart body is read only after it, so
 * `number` is optional here and required by the handler (`externalSendBody`) for both kinds.
 */
export const externalSendRequest = externalSendBody.extend({
  number: externalNumber.optional().describe('Required: country code, area code and number'),
});

/** Where a message sent through the API is. */
export const EXTERNAL_MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed'] as const;
export type ExternalMessageStatus = (typeof EXTERNAL_MESSAGE_STATUSES)[number];

export const externalSendAnswer = z.object({
  /** The first message's id (with several files, one message per file: see `messageIds`). */
  messageId: wireInt,
  messageIds: z.array(wireInt),
  status: z.enum(EXTERNAL_MESSAGE_STATUSES),
});

export const externalStatusAnswer = z.object({
  messageId: wireInt,
  status: z.enum(EXTERNAL_MESSAGE_STATUSES),
  /** WhatsApp's ack: 0 pending, 1 sent, 2 delivered, 3 read, 4 played. */
  ack: wireInt,
  error: z.string().nullable(),
  number: z.string(),
  createdAt: wireDate,
});

export const externalApiEndpoints = {
  sendExternalMessage: endpoint({
    method: 'post',
    path: '/api/messages/send',
    summary:
      'Sends a WhatsApp message through the connection whose token is the bearer: JSON {number, body} or multipart {number, body, medias}; an Idempotency-Key header sends once',
    tag: 'external-api',
    access: 'public',
    plan: 'useExternalApi',
    multipart: true,
    body: externalSendRequest,
    response: externalSendAnswer,
  }),
  externalMessageStatus: endpoint({
    method: 'get',
    path: '/api/messages/:id',
    summary: "A message sent through the API: where it is (bearer: the connection's token)",
    tag: 'external-api',
    access: 'public',
    plan: 'useExternalApi',
    params: idParams,
    response: externalStatusAnswer,
  }),
  rotateConnectionToken: endpoint({
    method: 'post',
    path: '/whatsapp/:id/token',
    summary:
      'Gives the connection a new random API token, answered once (the old one stops working)',
    tag: 'whatsapps',
    access: 'connections-page:editOrDeleteConnection',
    params: z.object({ id: idSchema }),
    response: z.object({ token: z.string(), tokenLast4: z.string() }),
  }),
} as const;

/** The token as typed on the connection form (Whaticket sends it on every save). */
export const connectionTokenInput = lineSchema(100).trim();
