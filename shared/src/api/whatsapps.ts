import { z } from 'zod';
import { endpoint } from './endpoint.js';
import {
  idParams,
  idSchema,
  lineSchema,
  messageAnswer,
  nameSchema,
  ref,
  textSchema,
  wireDate,
  wireInt,
} from './common.js';
import { looseBoolean, refOrNone } from './liberal.js';
import { SECRET_MASK } from './settings.js';

/** Connection statuses of admin §2 (the connections page shows one icon per status). */
export const CONNECTION_STATUSES = [
  'OPENING',
  'qrcode',
  'PAIRING',
  'CONNECTED',
  'DISCONNECTED',
  'TIMEOUT',
] as const;
export type ConnectionStatusName = (typeof CONNECTION_STATUSES)[number];

/** 'beta' is Baileys (the name Whaticket clients send); 'simulator' exists where SIMULATOR=on. */
export const WHATSAPP_PROVIDERS = ['beta', 'simulator'] as const;

const message = textSchema(10_000);
const minutes = z.coerce.number().int().min(0).max(10_000_000);

/** The connection modal's fields (admin §2); every field optional so PUT can send a subset. */
export const whatsappFields = z.object({
  name: nameSchema,
  isDefault: looseBoolean,
  greetingMessage: message,
  complationMessage: message,
  outOfHoursMessage: message,
  ratingMessage: message,
  /**
   * Empty asks for a new random token; the masked form answered (`••••abcd`) keeps the stored
   * one; anything else is the admin's own token, at least 16 characters (issue 18 item 3).
   */
  token: lineSchema(100)
    .trim()
    .refine((t) => t === '' || t.startsWith(SECRET_MASK) || t.length >= 16, 'Too Short!'),
  provider: z.enum(WHATSAPP_PROVIDERS),
  queueIds: z.array(ref('queue')).max(500),
  transferQueueId: refOrNone('queue'),
  timeToTransfer: minutes,
  promptId: refOrNone('prompt'),
  expiresTicket: minutes,
  expiresInactiveMessage: message,
  timeUseBotQueues: minutes,
  maxUseBotQueues: minutes,
});

export const whatsappCreate = whatsappFields.partial().required({ name: true });
export type WhatsappCreate = z.infer<typeof whatsappCreate>;

export const whatsappUpdate = whatsappFields.partial();
export type WhatsappUpdate = z.infer<typeof whatsappUpdate>;

/** Defaults for a new connection (admin §2). */
export const WHATSAPP_DEFAULTS = {
  provider: 'beta',
  maxUseBotQueues: 3,
  expiresTicket: 0,
  timeUseBotQueues: 0,
} as const;

export const whatsappListQuery = z.object({
  session: z.unknown().optional(),
  companyId: z.unknown().optional(),
});

/** Session start and new QR: with a phone number (digits, country code first) the session links
 * by pairing code instead of a QR code. */
export const sessionBody = z.object({
  pairingPhone: lineSchema(20)
    .regex(/^\d{10,15}$/, 'Informe o número com DDI e DDD, só dígitos')
    .optional(),
});

/** A connection as the routes answer it; `token` only to admins (administration §2). */
export const whatsappAnswer = z.object({
  id: wireInt,
  companyId: wireInt,
  name: z.string(),
  number: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  qrcode: z.string(),
  retries: wireInt,
  isDefault: z.boolean(),
  provider: z.string(),
  /** Admins only: masked (`••••abcd`), in clear only in the answer of the save that set it. */
  token: z.string().optional(),
  tokenLast4: z.string().optional(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  transferQueueId: wireInt.nullable(),
  timeToTransfer: wireInt,
  promptId: wireInt.nullable(),
  expiresTicket: wireInt,
  expiresInactiveMessage: z.string(),
  timeUseBotQueues: wireInt,
  maxUseBotQueues: wireInt,
  queues: z.array(
    z.object({ id: wireInt, name: z.string(), color: z.string(), greetingMessage: z.string() }),
  ),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type WhatsappAnswer = z.infer<typeof whatsappAnswer>;

/** A session event the platform could not handle, kept for the admin. */
export const deadLetterAnswer = z.object({
  id: wireInt,
  whatsappId: wireInt,
  inboxId: z.string(),
  eventName: z.string(),
  event: z.unknown(),
  error: z.string(),
  errorCode: z.string().nullable(),
  attempts: wireInt,
  receivedAt: wireDate,
  createdAt: wireDate,
});

export const deadLetterQuery = z.object({
  /** Only letters older than this one (the last id of the previous page). */
  before: idSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const sessionAction = (method: 'post' | 'put' | 'delete', summary: string) =>
  endpoint({
    method,
    path: '/whatsappsession/:id',
    summary,
    tag: 'whatsapps',
    access: 'connections-page:actionButtons',
    params: idParams,
    body: sessionBody,
    response: messageAnswer,
  });

/** Connections, their sessions and dead letters (administration §2, §7). */
export const whatsappEndpoints = {
  listWhatsapps: endpoint({
    method: 'get',
    path: '/whatsapp',
    summary: "The company's connections (session and companyId are accepted and ignored)",
    tag: 'whatsapps',
    query: whatsappListQuery,
    response: z.array(whatsappAnswer),
  }),
  providers: endpoint({
    method: 'get',
    path: '/whatsapp/providers',
    summary: 'The providers a new connection may use here',
    tag: 'whatsapps',
    response: z.object({ providers: z.array(z.enum(WHATSAPP_PROVIDERS)) }),
  }),
  showWhatsapp: endpoint({
    method: 'get',
    path: '/whatsapp/:id',
    summary: 'One connection',
    tag: 'whatsapps',
    params: idParams,
    query: whatsappListQuery,
    response: whatsappAnswer,
  }),
  createWhatsapp: endpoint({
    method: 'post',
    path: '/whatsapp',
    summary: 'Creates a connection and starts its session',
    tag: 'whatsapps',
    access: 'connections-page:addConnection',
    body: whatsappCreate,
    status: 201,
    response: whatsappAnswer,
  }),
  updateWhatsapp: endpoint({
    method: 'put',
    path: '/whatsapp/:id',
    summary: 'Changes a connection (a new provider restarts its session)',
    tag: 'whatsapps',
    access: 'connections-page:editOrDeleteConnection',
    params: idParams,
    body: whatsappUpdate,
    response: whatsappAnswer,
  }),
  deleteWhatsapp: endpoint({
    method: 'delete',
    path: '/whatsapp/:id',
    summary: 'Deletes a connection and stops its session',
    tag: 'whatsapps',
    access: 'connections-page:editOrDeleteConnection',
    params: idParams,
    response: messageAnswer,
  }),
  startSession: sessionAction('post', 'Starts the session (a QR code, or a pairing code)'),
  newQr: sessionAction('put', 'Asks the session for a new QR code (or pairing code)'),
  stopSession: sessionAction('delete', 'Disconnects the session'),
  restartAll: endpoint({
    method: 'post',
    path: '/whatsapp-restart',
    summary: "Restarts every connection's session",
    tag: 'whatsapps',
    access: 'connections-page:actionButtons',
    response: messageAnswer,
  }),
  deadLetters: endpoint({
    method: 'get',
    path: '/whatsapp/:whatsappId/dead-letters',
    summary: 'Session events of a connection that could not be handled, newest first',
    tag: 'whatsapps',
    access: 'admin',
    params: z.object({ whatsappId: idSchema }),
    query: deadLetterQuery,
    response: z.object({ deadLetters: z.array(deadLetterAnswer), hasMore: z.boolean() }),
  }),
} as const;

/** A media file's name in `/media/:file`. */
export const mediaFileParams = z.object({ file: lineSchema(80) });
/** The signature of a media link (`?c=&exp=&sig=`, decisions: signed media links). */
export const mediaLinkQuery = z.object({
  c: z.coerce.number().int().positive(),
  exp: z.coerce.number().int().positive(),
  sig: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
});

/** Media of messages. */
export const mediaEndpoints = {
  mediaFile: endpoint({
    method: 'get',
    path: '/media/:file',
    summary:
      'A media file of the company, with the bearer token; or, without one, by a signed link (c, exp, sig)',
    tag: 'media',
    params: mediaFileParams,
    query: mediaLinkQuery.partial(),
    response: 'file',
  }),
} as const;
