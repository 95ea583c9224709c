// The send governor (issue 12 item 7): per-connection pacing of bulk sends, shared by every
// outbound path through whatsapp/outbound.ts. Replies in a conversation use the 'agent' lane.
import { sessionEventHandlers } from '../../whatsapp/hooks.js';
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

// Registered once, like the other session listeners (the module manifest will list it).
if (!sessionEventHandlers.includes(breakOnDisconnect)) sessionEventHandlers.push(breakOnDisconnect);
