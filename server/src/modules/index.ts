// The module list: what the server runs, in order. `server.ts` starts the workers and collects the
// listeners (`app.hooks`), `http/app.ts` mounts the routers and `db/entities.ts` gives the data
// source the entities, each by looping over this list. Its order is the order of:
// - routers (express matches in mounting order);
// - workers at start (the session manager last, once everything it feeds is running);
// - listeners of each kind (session events, send results, media results, payload lookups,
//   hand-offs);
// - domain-event consumers within one pass (timers arm before routing answers, as the post-commit
//   steps did). Migrations stay in one list, `db/migrations/index.ts` (TypeORM sorts them by
//   timestamp, and a module's tables reference other modules' tables).
import { whatsappModule } from '../whatsapp/index.js';
import { authModule } from './auth/index.js';
import { automationModule } from './automation/index.js';
import { billingModule } from './billing/index.js';
import { campaignsModule } from './campaigns/index.js';
import { changesModule } from './changes/index.js';
import { companiesModule } from './companies/index.js';
import { contactsModule } from './contacts/index.js';
import { dashboardModule } from './dashboard/index.js';
import { governorModule } from './governor/index.js';
import { helpsModule } from './helps/index.js';
import { integrationsModule } from './integrations/index.js';
import type { ModuleManifest } from './manifest.js';
import { messagesModule } from './messages/index.js';
import { notesModule } from './notes/index.js';
import { plansModule } from './plans/index.js';
import { queueOptionsModule } from './queue-options/index.js';
import { queuesModule } from './queues/index.js';
import { quickMessagesModule } from './quick-messages/index.js';
import { ratingModule } from './rating/index.js';
import { routingModule } from './routing/index.js';
import { schedulesModule } from './schedules/index.js';
import { settingsModule } from './settings/index.js';
import { tagsModule } from './tags/index.js';
import { ticketsModule } from './tickets/index.js';
import { timersModule } from './timers/index.js';
import { usersModule } from './users/index.js';
import { whatsappsModule } from './whatsapps/index.js';
import { contactListsModule } from './contact-lists/index.js';
import { filesModule } from './files/index.js';
import { chatsModule } from './chats/index.js';
import { announcementsModule } from './announcements/index.js';
import { promptsModule } from './prompts/index.js';
import { externalApiModule } from './external-api/index.js';

export const modules: readonly ModuleManifest[] = [
  authModule,
  companiesModule,
  plansModule,
  usersModule,
  settingsModule,
  contactsModule,
  ticketsModule,
  messagesModule,
  changesModule,
  tagsModule,
  notesModule,
  dashboardModule,
  whatsappsModule,
  queuesModule,
  queueOptionsModule,
  quickMessagesModule,
  ratingModule,
  timersModule,
  routingModule,
  governorModule,
  billingModule,
  automationModule,
  helpsModule,
  campaignsModule,
  contactListsModule,
  filesModule,
  schedulesModule,
  chatsModule,
  announcementsModule,
  integrationsModule,
  promptsModule,
  externalApiModule,
  whatsappModule,
];
