// Scheduled messages (issue 17 item 1): routes and the durable `schedule` job (see CONTEXT.md).
import { schedulesRoutes } from './schedules.routes.js';
import { startSchedules } from './schedules.service.js';
import { defineModule } from '../manifest.js';
// The manifest references other files' bindings only as hoisted functions or inside arrows, so
// an import cycle between modules never reads one before it is set.

export const schedulesModule = defineModule({
  name: 'schedules',
  routers: [schedulesRoutes],
  workers: [(app) => startSchedules(app)],
});

// What other modules use (they import this module only through this file).
export { scheduleJob, sweepSchedules } from './schedules.service.js';
