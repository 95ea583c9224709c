// Tags.
import { TagEntity } from './tag.entity.js';
import { tagsRoutes } from './tags.routes.js';
import { kanbanRoutes } from './kanban.routes.js';
import { defineModule } from '../manifest.js';

export const tagsModule = defineModule({
  name: 'tags',
  entities: [TagEntity],
  // Kanban first: `/tags/kanban` must match before `/tags/:id`.
  routers: [kanbanRoutes, tagsRoutes],
});
