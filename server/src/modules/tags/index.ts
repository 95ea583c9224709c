// Tags.
import { TagEntity } from './tag.entity.js';
import { tagsRoutes } from './tags.routes.js';
import { defineModule } from '../manifest.js';

export const tagsModule = defineModule({
  name: 'tags',
  entities: [TagEntity],
  routers: [tagsRoutes],
});
