// Queue integrations (issue 18 item 2): Dialogflow ES, n8n, webhook and Typebot attached to a
// queue take the conversation until they hand it off (see CONTEXT.md).
import { defineModule } from '../manifest.js';
import { startDeliveries } from './deliveries.js';
import { startReplies } from './effects.js';
import { integrationHandOff } from './handoff.js';
import { QueueIntegrationEntity } from './integration.entity.js';
import { integrationsRoutes } from './integrations.routes.js';

export const integrationsModule = defineModule({
  name: 'integrations',
  entities: [QueueIntegrationEntity],
  routers: [integrationsRoutes],
  workers: [async (app) => startReplies(app), async (app) => startDeliveries(app)],
  listeners: { handOff: [integrationHandOff] },
});

// What other modules use (they import this module only through this file).
export { QueueIntegrationEntity, type QueueIntegration } from './integration.entity.js';
