// AI prompts (issue 18 item 1): the rows and routes, routing's hand-off to the AI, the turn
// worker and the metering. See CONTEXT.md.
import { defineModule } from '../manifest.js';
import {
  onMessageStored,
  onMessagesStored,
  promptHandOff,
  startPromptTurns,
} from './prompt-turns.js';
import { promptsRoutes } from './prompts.routes.js';

export const promptsModule = defineModule({
  name: 'prompts',
  routers: [promptsRoutes],
  workers: [(app) => startPromptTurns(app)],
  listeners: { handOff: [(ctx, target) => promptHandOff(ctx, target)] },
  consumers: [
    {
      name: 'prompts',
      on: { 'message.stored': (app, e) => onMessageStored(app, e) },
      runs: { 'message.stored': (app, events) => onMessagesStored(app, events) },
    },
  ],
});

// What other modules use (they import this module only through this file).
export { runTurn, sweepTurns } from './prompt-turns.js';
