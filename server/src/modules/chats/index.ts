// Internal chat (issue 17): chats among the users of one company, members only.
import { chatsRoutes } from './chats.routes.js';
import { defineModule } from '../manifest.js';

export const chatsModule = defineModule({
  name: 'chats',
  routers: [chatsRoutes],
});
