// The inbound pipeline's common case: a new text message from a known contact (found by phone,
// nothing to update) into its open ticket, stored as a run of one by the burst writer
// (inbound-batch.ts): parameterised named statements, one transaction. Anything else (new contact
// or ticket, a known id, a name or LID to learn, a group) writes nothing there and the general
// path stores the message.
import type { AppContext } from '../../context.js';
import type { ConnectionRef, InboxEntry } from '../../whatsapp/hooks.js';
import type { PortMessage } from '../../whatsapp/port.js';
import type { TicketView } from '../tickets/index.js';
import { writeKnownRun } from './inbound-batch.js';

export { fastEligible } from './inbound-batch.js';
import type { MessageView } from './messages.queries.js';

export interface FastStored {
  message: MessageView;
  ticket: TicketView;
  published: Promise<void>;
}

/**
 * Stores the message in one transaction if it is the common case; undefined (and nothing
 * written) when the general path must take it.
 */
export async function storeFast(
  app: AppContext,
  connection: ConnectionRef,
  msg: PortMessage,
  entry?: InboxEntry,
): Promise<FastStored | undefined> {
  const written = await writeKnownRun(app, connection, [{ msg, entry }], {
    createContacts: true,
  });
  if (written.take !== 1 || !written.messages) return undefined;
  const message = written.messages[0]!;
  return { message, ticket: written.tickets.get(message.ticketId)!, published: written.published };
}
