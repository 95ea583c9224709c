// Plans and their feature flags.
import { PlanEntity } from './plan.entity.js';
import { plansRoutes } from './plans.routes.js';
import { defineModule } from '../manifest.js';

export const plansModule = defineModule({
  name: 'plans',
  entities: [PlanEntity],
  routers: [plansRoutes],
});

// What other modules use (they import this module only through this file).
export { PlanEntity } from './plan.entity.js';
export { publicPlan } from './plans.routes.js';
