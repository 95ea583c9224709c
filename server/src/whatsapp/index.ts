// The WhatsApp layer's part of the module list: the simulator's control routes, the dead letters
// and the session manager. The rest of this folder is infrastructure that modules import directly
// (see CONTEXT.md).
import { defineModule } from '../modules/manifest.js';
import { DeadLetterEntity } from './dead-letter.entity.js';
import { deadLettersRoutes } from './dead-letters.routes.js';
import { startSessionManager } from './sessions.js';
import { simulatorRoutes } from './simulator/routes.js';

export const whatsappModule = defineModule({
  name: 'whatsapp',
  entities: [DeadLetterEntity],
  routers: [simulatorRoutes, deadLettersRoutes],
  workers: [(app) => startSessionManager(app)],
});
