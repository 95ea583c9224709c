import { z } from 'zod';
import { lineSchema, nameSchema, ref, textSchema } from './common.js';
import { looseBoolean, refOrNone } from './liberal.js';

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
  /** Empty asks for a new random token; the server never stores an empty one. */
  token: lineSchema(100)
    .trim()
    .refine((t) => t === '' || t.length >= 16, 'Too Short!'),
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
