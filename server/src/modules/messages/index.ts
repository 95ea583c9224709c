// Messages: the inbound pipeline, agent sends, send results (see CONTEXT.md).
import { handleSessionEvent } from './inbound.js';
import { storeInboundBatch } from './inbound-batch.js';
import { applyMediaResult } from './message-events.js';
import { MessageEntity } from './message.entity.js';
import { messagesRoutes } from './messages.routes.js';
import { applyOutboundResult, lookupPayload } from './outbound-results.js';
import { defineModule } from '../manifest.js';
// The manifest references other files' bindings only as entity schemas, hoisted functions or
// inside arrows, so an import cycle between modules never reads one before it is set.

export const messagesModule = defineModule({
  name: 'messages',
  entities: [MessageEntity],
  routers: [messagesRoutes],
  listeners: {
    sessionEvent: [
      Object.assign(
        (...args: Parameters<typeof handleSessionEvent>) => handleSessionEvent(...args),
        { batch: (...args: Parameters<typeof storeInboundBatch>) => storeInboundBatch(...args) },
      ),
    ],
    mediaResult: [applyMediaResult],
    outboundResult: [applyOutboundResult],
    providerPayloadLookup: [(app, connection, ref) => lookupPayload(app, connection, ref)],
  },
});

// What other modules use (they import this module only through this file).
export { type StoredInbound } from './inbound.js';
export { loadStoredInbound, loadStoredInboundMany, outgoingStored } from './inbound-events.js';
export { loadMessage, loadMessages, messageChange } from './messages.queries.js';
export { sendMessage } from './messages.service.js';
export {
  chatTarget,
  dispatchOutgoing,
  markSendFailed,
  newWhatsappId,
  OUTGOING_LANES,
  sendOutgoing,
  storeOutgoing,
  type Outgoing,
  type OutgoingMedia,
  type OutgoingOrigin,
  type OutgoingRequest,
  type SentOutgoing,
  type StoredOutgoing,
} from './outgoing.js';
