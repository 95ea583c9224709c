// Campaigns (issue 16): mass sends to a contact list or a tag, paced by the send governor, each
// recipient once, with confirmations, opt-outs and a live report. See CONTEXT.md.
import { defineModule } from '../manifest.js';
import {
  onMessageStored,
  onMessagesStored,
  onOutboundResult,
  onSessionEvent,
  startCampaigns,
} from './campaigns.dispatch.js';
import { campaignsRoutes } from './campaigns.routes.js';

export const campaignsModule = defineModule({
  name: 'campaigns',
  routers: [campaignsRoutes],
  workers: [(app) => startCampaigns(app)],
  listeners: {
    sessionEvent: [(app, connection, event) => onSessionEvent(app, connection, event)],
    outboundResult: [(app, job, result) => onOutboundResult(app, job, result)],
  },
  consumers: [
    {
      name: 'campaigns',
      on: { 'message.stored': onMessageStored },
      runs: { 'message.stored': onMessagesStored },
      startAt: 'head',
    },
  ],
});

// What other modules use (they import this module only through this file). Every bulk path
// (schedules, the external API) checks `isSuppressed` when it queues and again when it sends.
export {
  canonicalNumber,
  classifyReply,
  isSuppressed,
  suppressNumber,
} from './campaigns.service.js';
