/**
 * The socket protocol (core §7, administration §7) in one place: the version a client states at
 * the handshake, the channel names, one zod schema per company event, the change-feed entity ↔
 * event map and the `GET /sync/changes` answer. Entities inside payloads are loose objects with an
 * `id` (their full shape is the route's answer, declared in `shared/src/api`).
 */
import { z } from 'zod';

/**
 * Bumped when an event's name or payload changes in a way an older client would misread. A client
 * sends it in the handshake auth (`{ token, protocol }`); the server refuses a different number
 * with `ERR_PROTOCOL_VERSION` (the expected number in the error's data). No number: accepted.
 */
export const PROTOCOL_VERSION = 1;

/** The handshake auth a client sends. */
export const handshakeAuth = z.object({
  token: z.string().min(1),
  protocol: z.number().int().nullish(),
});
export type HandshakeAuth = z.infer<typeof handshakeAuth>;

/** What a refusal for `ERR_PROTOCOL_VERSION` carries in `err.data`. */
export const protocolRefusal = z.object({
  error: z.literal('ERR_PROTOCOL_VERSION'),
  expected: z.number().int(),
  /** What the client stated; -1 when it was not a whole number. */
  received: z.number().int(),
  /** The pt-BR text (clients translate by `error`). */
  message: z.string(),
});
export type ProtocolRefusal = z.infer<typeof protocolRefusal>;

// ---- channels -------------------------------------------------------------------------------

export const roomOfCompany = (companyId: number): string => `company-${companyId}`;
export const roomOfCompanyAdmins = (companyId: number): string => `company-${companyId}-admins`;
export const roomOfUser = (userId: number): string => `user-${userId}`;

// ---- payloads -------------------------------------------------------------------------------

const id = z.number().int();
/**
 * An object whose other keys are kept as given when parsed; typed by the keys it names only, so a
 * server row (an interface without an index signature) is accepted as the payload.
 */
const loose = <S extends z.ZodRawShape>(shape: S) =>
  z.looseObject(shape) as unknown as z.ZodObject<S>;
/** An entity as a route answers it: its id, the rest as given. */
const entity = loose({ id });
/** The change-feed number an event of a fed entity carries (absent on list moves). */
const seq = z.number().int().nonnegative().optional();

const ticketData = loose({
  id,
  status: z.string(),
  userId: id.nullable(),
  queueId: id.nullable(),
});

export const ticketEvent = z.discriminatedUnion('action', [
  z.object({ action: z.literal('update'), ticket: ticketData, seq }),
  z.object({ action: z.literal('delete'), ticketId: id, seq }),
  z.object({ action: z.literal('updateUnread'), ticketId: id, seq }),
]);

export const appMessageEvent = z.object({
  action: z.enum(['create', 'update']),
  message: loose({ id, ticketId: id }),
  ticket: ticketData,
  contact: entity.nullable(),
  seq,
});

export const contactEvent = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['create', 'update']), contact: entity, seq }),
  z.object({ action: z.literal('delete'), contactId: id, mergedInto: id.optional(), seq }),
]);

export const tagEvent = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['create', 'update']), tag: entity, seq }),
  z.object({ action: z.literal('delete'), tagId: id, seq }),
]);

/** Notes travel through the change feed only (no socket event in core §7). */
export const noteChange = z.discriminatedUnion('action', [
  z.object({ action: z.literal('create'), note: entity }),
  z.object({ action: z.literal('delete'), noteId: id }),
]);

export const userEvent = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['create', 'update']), user: entity }),
  z.object({ action: z.literal('delete'), userId: id }),
]);

/** The same user signed in elsewhere (core §4). */
export const authEvent = z.object({ action: z.literal('update'), user: z.object({ id }) });

export const settingsEvent = z.object({
  action: z.literal('update'),
  setting: loose({ key: z.string() }),
});

export const companyEventPayload = z.object({ action: z.literal('update'), company: entity });

export const whatsappEvent = z.discriminatedUnion('action', [
  z.object({ action: z.literal('update'), whatsapp: entity }),
  z.object({ action: z.literal('delete'), whatsappId: id }),
]);

export const whatsappSessionEvent = z.object({
  action: z.literal('update'),
  session: loose({ id, status: z.string() }),
});

export const queueEvent = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['create', 'update']), queue: entity }),
  z.object({ action: z.literal('delete'), queueId: id }),
]);

export const quickmessageEvent = z.object({
  action: z.enum(['create', 'update', 'delete']),
  record: entity,
  id,
});

/** Schedules (secondary §7 live lists): the row under `schedule`, a deleted one's id. */
export const scheduleEvent = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['create', 'update']), schedule: entity }),
  z.object({ action: z.literal('delete'), scheduleId: id }),
]);

/** AI prompts (secondary §4 live lists), to the company's admins; keys always masked. */
export const promptEvent = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['create', 'update']), prompt: entity }),
  z.object({ action: z.literal('delete'), promptId: id }),
]);

/**
 * Internal chat (core §7 `-chat` new-message/update; secondary §4 live lists create/delete).
 * Sent only to the rooms of the chat's members (`user-{id}`), never company-wide. A change-feed
 * entity (`chat`): its feed rows are read only by the members (`userIds` of the row).
 */
export const chatEvent = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('new-message'),
    newMessage: loose({ id, chatId: id }),
    chat: entity,
    seq,
  }),
  z.object({ action: z.enum(['create', 'update']), chat: entity, seq }),
  z.object({ action: z.literal('delete'), chatId: id, id, seq }),
]);

/**
 * Billing (administration §4, §7): a payment counted for the company's invoice. `company` carries
 * the new `dueDate` (yyyy-MM-dd) the open checkout shows in its renewal message.
 */
export const paymentEvent = z.object({
  action: z.literal('CONCLUIDA'),
  company: loose({ id, dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
});

/** Campaigns (issue 16): a campaign row changed (with its counters), or one recipient moved. */
export const campaignEvent = z.object({
  action: z.enum(['create', 'update', 'delete']),
  record: entity.optional(),
  id,
});
export const campaignShippingEvent = z.object({
  action: z.literal('update'),
  campaignId: id,
  shipping: entity,
});

/**
 * Contact lists, their items and file lists (secondary §4 live lists): create and update carry
 * the row under `record`, delete its `id`; `reload` asks the page to load again (after an import).
 * Items carry `contactListId`, so a list's page keeps only its own.
 */
export const contactListEvent = z.object({
  action: z.enum(['create', 'update', 'delete', 'reload']),
  record: entity.optional(),
  id: id.optional(),
});
export const contactListItemEvent = contactListEvent.extend({ contactListId: id });
export const fileListEvent = contactListEvent;
/** The progress of a spreadsheet import into a contact list. */
export const contactListImportEvent = z.object({
  action: z.literal('update'),
  record: loose({ id, contactListId: id, status: z.string() }),
});

/** Queue integrations (secondary §3): the row on create/update, the id always. */
export const queueIntegrationEvent = z.object({
  action: z.enum(['create', 'update', 'delete']),
  queueIntegration: entity.optional(),
  integrationId: id,
});

/** One schema per `company-{id}-{name}` event. */
export const COMPANY_EVENTS = {
  auth: authEvent,
  user: userEvent,
  settings: settingsEvent,
  company: companyEventPayload,
  whatsapp: whatsappEvent,
  whatsappSession: whatsappSessionEvent,
  queue: queueEvent,
  ticket: ticketEvent,
  appMessage: appMessageEvent,
  contact: contactEvent,
  tag: tagEvent,
  chat: chatEvent,
  quickmessage: quickmessageEvent,
  payment: paymentEvent,
  campaign: campaignEvent,
  campaignShipping: campaignShippingEvent,
  ContactList: contactListEvent,
  ContactListItem: contactListItemEvent,
  contactListImport: contactListImportEvent,
  file: fileListEvent,
  schedule: scheduleEvent,
  queueIntegration: queueIntegrationEvent,
  prompt: promptEvent,
} as const;

export type CompanyEventName = keyof typeof COMPANY_EVENTS;
export const COMPANY_EVENT_NAMES = Object.keys(COMPANY_EVENTS) as CompanyEventName[];
/** The payload of `company-{id}-{name}` as it travels. */
export type CompanyEventPayload<N extends CompanyEventName> = z.infer<(typeof COMPANY_EVENTS)[N]>;

/**
 * Platform-wide events (no company in the name): `company-announcement` (core §7). Announcements
 * are written by the super user for every company; `create`/`update` carry an active one, `delete`
 * the id of one deleted or made inactive.
 */
export const announcementEvent = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['create', 'update']), record: loose({ id, priority: id }) }),
  z.object({ action: z.literal('delete'), id }),
]);
export const PLATFORM_EVENTS = { announcement: announcementEvent } as const;
export type PlatformEventName = keyof typeof PLATFORM_EVENTS;
export type PlatformEventPayload<N extends PlatformEventName> = z.infer<
  (typeof PLATFORM_EVENTS)[N]
>;
/** `company-{name}`: the socket event name of a platform event. */
export const platformEvent = (name: PlatformEventName): string => `company-${name}`;

export const companyEvent = (companyId: number, name: CompanyEventName): string =>
  `company-${companyId}-${name}`;

/** The name part of `company-{id}-{name}` for this company, or null (not one of its events). */
export function companyEventName(companyId: number, event: string): CompanyEventName | null {
  const prefix = `company-${companyId}-`;
  if (!event.startsWith(prefix)) return null;
  const name = event.slice(prefix.length);
  return name in COMPANY_EVENTS ? (name as CompanyEventName) : null;
}

// ---- the change feed ------------------------------------------------------------------------

/** The entities the change feed numbers. */
export const CHANGE_ENTITIES = ['ticket', 'message', 'contact', 'tag', 'note', 'chat'] as const;
export type ChangeEntity = (typeof CHANGE_ENTITIES)[number];

/**
 * The company event each feed entity is published (and replayed) as; `null`: feed only. The one
 * copy of this map: the server's publisher, the desktop's cache and the web catch-up read it.
 */
export const EVENT_OF_ENTITY = {
  ticket: 'ticket',
  message: 'appMessage',
  contact: 'contact',
  tag: 'tag',
  note: null,
  chat: 'chat',
} as const satisfies Record<ChangeEntity, CompanyEventName | null>;
export type EventOfEntity = typeof EVENT_OF_ENTITY;

/** The event name → feed entity, for the events that carry a feed number. */
export const ENTITY_OF_EVENT = Object.fromEntries(
  Object.entries(EVENT_OF_ENTITY).flatMap(([e, name]) => (name ? [[name, e]] : [])),
) as Partial<Record<CompanyEventName, ChangeEntity>>;

/** A feed row's payload: its event's payload (the feed number is the row's `seq`). */
export const CHANGE_PAYLOADS = {
  ticket: ticketEvent,
  message: appMessageEvent,
  contact: contactEvent,
  tag: tagEvent,
  note: noteChange,
  chat: chatEvent,
} as const satisfies Record<ChangeEntity, z.ZodType>;
export type ChangePayload<E extends ChangeEntity> = z.infer<(typeof CHANGE_PAYLOADS)[E]>;

const feedSeq = z.number().int().nonnegative();

export const feedChange = z.object({
  seq: feedSeq,
  entity: z.string(),
  entityId: id,
  action: z.string(),
  payload: z.unknown(),
});
export type FeedChange = z.infer<typeof feedChange>;

/** A page of `GET /sync/changes?after=N`: `last` is the next `after`; `head` the feed's number. */
export const feedPage = z.object({
  changes: z.array(feedChange),
  hasMore: z.boolean(),
  last: feedSeq,
  head: feedSeq.optional(),
});
export type FeedPageAnswer = z.infer<typeof feedPage>;

/** The feed cannot tell what was missed (pruned, or `after` past the head): reload, resume at `head`. */
export const feedReset = z.object({ resetRequired: z.literal(true), head: feedSeq });

/** The answer of `GET /sync/changes`. */
export const feedAnswer = z.union([feedReset, feedPage]);
export type FeedAnswerBody = z.infer<typeof feedAnswer>;
