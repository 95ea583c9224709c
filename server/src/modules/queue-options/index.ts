// The option trees of queues.
import { QueueOptionEntity } from './queue-option.entity.js';
import { queueOptionsRoutes } from './queue-options.routes.js';
import { defineModule } from '../manifest.js';

export const queueOptionsModule = defineModule({
  name: 'queue-options',
  entities: [QueueOptionEntity],
  routers: [queueOptionsRoutes],
});

// What other modules use (they import this module only through this file).
export { type QueueOption, QueueOptionEntity } from './queue-option.entity.js';
export { byOption } from './queue-options.service.js';
