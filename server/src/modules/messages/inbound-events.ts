// The `message.stored` event of a message the session stored, and what its consumers (routing,
// timers) read back from it.
import type { AppContext } from '../../context.js';
import type { DomainEvent, DomainEventInput } from '../changes/index.js';
import { loadTickets } from '../tickets/index.js';
import type { StoredInbound } from './inbound.js';
import type { OutgoingOrigin } from './outgoing.js';
import { loadMessages, type MessageView } from './messages.queries.js';

/** The `message.stored` event of a message the session stored. */
export const storedEvent = (
  message: Pick<MessageView, 'id' | 'ticketId' | 'fromMe'>,
  whatsappId: number,
  ticketCreated: boolean,
): DomainEventInput => ({
  type: 'message.stored',
  payload: {
    messageId: message.id,
    ticketId: message.ticketId,
    whatsappId,
    fromMe: message.fromMe,
    origin: 'inbound',
    ticketCreated,
  },
});

/** What a consumer of a `message.stored` event from the session needs, read now. */
export async function loadStoredInbound(
  app: AppContext,
  event: DomainEvent<'message.stored'>,
): Promise<StoredInbound | undefined> {
  const { companyId, payload } = event;
  if (payload.origin !== 'inbound' || payload.whatsappId == null) return undefined;
  const [message] = await loadMessages(app.ds, companyId, [payload.messageId]);
  const [ticket] = await loadTickets(app.ds, companyId, [payload.ticketId]);
  if (!message || !ticket) return undefined;
  return {
    connection: { companyId, whatsappId: payload.whatsappId },
    message,
    ticket,
    ticketCreated: payload.ticketCreated,
  };
}

/**
 * `loadStoredInbound` for many events of one company at once (two reads); the answer is in the
 * events' order, undefined where that function would answer undefined.
 */
export async function loadStoredInboundMany(
  app: AppContext,
  events: readonly DomainEvent<'message.stored'>[],
): Promise<(StoredInbound | undefined)[]> {
  const companyId = events[0]?.companyId;
  if (companyId === undefined) return [];
  if (events.some((e) => e.companyId !== companyId)) throw new Error('one company per call');
  const inbound = events.filter((e) => e.payload.origin === 'inbound');
  const messages = await loadMessages(
    app.ds,
    companyId,
    inbound.map((e) => e.payload.messageId),
  );
  const tickets = await loadTickets(app.ds, companyId, [
    ...new Set(inbound.map((e) => e.payload.ticketId)),
  ]);
  const messageById = new Map(messages.map((m) => [m.id, m]));
  const ticketById = new Map(tickets.map((t) => [t.id, t]));
  return events.map(({ payload }) => {
    if (payload.origin !== 'inbound' || payload.whatsappId == null) return undefined;
    const message = messageById.get(payload.messageId);
    const ticket = ticketById.get(payload.ticketId);
    if (!message || !ticket) return undefined;
    return {
      connection: { companyId, whatsappId: payload.whatsappId },
      message,
      ticket,
      ticketCreated: payload.ticketCreated,
    };
  });
}

/** The `message.stored` event of a message we write to send (messages/outgoing.ts). */
export const outgoingStored = (
  message: Pick<MessageView, 'id' | 'ticketId' | 'whatsappId'>,
  origin: OutgoingOrigin,
): DomainEventInput => ({
  type: 'message.stored',
  payload: {
    messageId: message.id,
    ticketId: message.ticketId,
    whatsappId: message.whatsappId ?? null,
    fromMe: true,
    origin,
    ticketCreated: false,
  },
});
