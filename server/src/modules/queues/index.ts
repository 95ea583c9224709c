// Queues (and `upload.ts` for attachments).
import { QueueEntity } from './queue.entity.js';
import { queuesRoutes } from './queues.routes.js';
import { defineModule } from '../manifest.js';

export const queuesModule = defineModule({
  name: 'queues',
  entities: [QueueEntity],
  routers: [queuesRoutes],
});

// What other modules use (they import this module only through this file).
export { QueueEntity } from './queue.entity.js';
export { receiveFile, removeAttachment, storeAttachment } from './upload.js';
