// The send governor (issue 12 item 7): per-connection pacing of bulk sends, shared by every
// outbound path through whatsapp/outbound.ts. Replies in a conversation use the 'agent' lane.
import { defineModule } from '../manifest.js';
import { breakOnDisconnect } from './governor.js';

export {
  breakOnDisconnect,
  realClock,
  recordBulkOutcome,
  sendClock,
  setSendClock,
  setSendPolicy,
  takeBulkTurn,
  tripBreaker,
  type SendClock,
} from './governor.js';
export {
  DEFAULT_SEND_POLICY,
  decideSend,
  type Lane,
  type SendDecision,
  type SendPolicy,
} from './policy.js';

/** Opens the breaker when a connection drops (a session listener). */
export const governorModule = defineModule({
  name: 'governor',
  listeners: {
    sessionEvent: [(app, connection, event) => breakOnDisconnect(app, connection, event)],
  },
});
