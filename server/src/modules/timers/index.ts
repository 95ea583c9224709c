// Ticket timers: idle expiry, transfer of waiting tickets, auto-close (durable jobs).
import {
  armOnSent,
  armOnSentMany,
  armOnStored,
  armOnStoredMany,
  startTicketTimers,
} from './timers.js';
import { defineModule } from '../manifest.js';
// The manifest references other files' bindings only as entity schemas, hoisted functions or
// inside arrows, so an import cycle between modules never reads one before it is set.

export const timersModule = defineModule({
  name: 'timers',
  workers: [startTicketTimers],
  consumers: [
    {
      name: 'timers',
      on: {
        'message.stored': armOnStored,
        'message.sent': armOnSent,
      },
      runs: {
        'message.stored': armOnStoredMany,
        'message.sent': armOnSentMany,
      },
    },
  ],
});

// What other modules use (they import this module only through this file).
export { armTicketTimers } from './timers.js';
