// Help videos: platform-wide, written by the super user, read by everyone (/helps).
import { HelpEntity } from './help.entity.js';
import { helpsRoutes } from './helps.routes.js';
import { defineModule } from '../manifest.js';

export const helpsModule = defineModule({
  name: 'helps',
  entities: [HelpEntity],
  routers: [helpsRoutes],
});
