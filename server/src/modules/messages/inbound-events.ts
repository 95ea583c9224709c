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
