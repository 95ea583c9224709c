// Announcements (issue 17): platform-wide notices of the super user, per-user read state.
import { announcementsRoutes } from './announcements.routes.js';
import { defineModule } from '../manifest.js';

export const announcementsModule = defineModule({
  name: 'announcements',
  routers: [announcementsRoutes],
});
