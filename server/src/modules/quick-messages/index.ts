// Quick messages.
import { QuickMessageEntity } from './quick-message.entity.js';
import { quickMessagesRoutes } from './quick-messages.routes.js';
import { defineModule } from '../manifest.js';

export const quickMessagesModule = defineModule({
  name: 'quick-messages',
  entities: [QuickMessageEntity],
  routers: [quickMessagesRoutes],
});
