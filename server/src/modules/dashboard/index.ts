// The dashboard figures.
import { dashboardRoutes } from './dashboard.routes.js';
import { defineModule } from '../manifest.js';

export const dashboardModule = defineModule({
  name: 'dashboard',
  routers: [dashboardRoutes],
});
