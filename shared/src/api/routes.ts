/**
 * The route table: every HTTP endpoint of the server, by feature. The server registers its
 * handlers from it (`serve()`), the renderer calls it (`api.call()`), `npm run openapi` documents
 * it. A feature adds its group here.
 */
import { contactEndpoints } from './contacts.js';
import type { Endpoint } from './endpoint.js';
import { messageEndpoints } from './messages.js';
import { noteEndpoints } from './notes.js';
import { queueEndpoints, queueOptionEndpoints } from './queues.js';
import { quickMessageEndpoints } from './quick-messages.js';
import { tagEndpoints } from './tags.js';
import { ticketEndpoints } from './tickets.js';
import { authEndpoints } from './auth.js';
import { companyEndpoints } from './companies.js';
import { planEndpoints } from './plans.js';
import { userEndpoints } from './users.js';
import { settingEndpoints } from './settings.js';
import { mediaEndpoints, whatsappEndpoints } from './whatsapps.js';
import { simulatorEndpoints } from './simulator.js';
import { syncEndpoints } from './sync.js';
import { dashboardEndpoints } from './dashboard.js';
import { systemEndpoints } from './system.js';
import { invoiceEndpoints } from './invoices.js';
import { helpEndpoints } from './helps.js';
import { logoEndpoints } from './settings.js';
import { campaignEndpoints } from './campaigns.js';
import { contactListEndpoints } from './contact-lists.js';
import { fileListEndpoints } from './files.js';
import { scheduleEndpoints } from './schedules.js';
import { kanbanEndpoints } from './kanban.js';
import { chatEndpoints } from './chats.js';
import { announcementEndpoints } from './announcements.js';
import { queueIntegrationEndpoints } from './queue-integrations.js';
import { promptEndpoints } from './prompts.js';
import { externalApiEndpoints } from './external-api.js';

export const routeTable = {
  contacts: contactEndpoints,
  tickets: ticketEndpoints,
  messages: messageEndpoints,
  notes: noteEndpoints,
  queues: queueEndpoints,
  queueOptions: queueOptionEndpoints,
  quickMessages: quickMessageEndpoints,
  tags: tagEndpoints,
  system: systemEndpoints,
  auth: authEndpoints,
  companies: companyEndpoints,
  plans: planEndpoints,
  users: userEndpoints,
  settings: settingEndpoints,
  whatsapps: whatsappEndpoints,
  media: mediaEndpoints,
  simulator: simulatorEndpoints,
  sync: syncEndpoints,
  dashboard: dashboardEndpoints,
  invoices: invoiceEndpoints,
  helps: helpEndpoints,
  logos: logoEndpoints,
  campaigns: campaignEndpoints,
  contactLists: contactListEndpoints,
  files: fileListEndpoints,
  schedules: scheduleEndpoints,
  kanban: kanbanEndpoints,
  chats: chatEndpoints,
  announcements: announcementEndpoints,
  queueIntegrations: queueIntegrationEndpoints,
  prompts: promptEndpoints,
  externalApi: externalApiEndpoints,
} as const satisfies Record<string, Record<string, Endpoint>>;

/** Every endpoint of the table, flattened (`group.name` → endpoint). */
export function allEndpoints(): { name: string; endpoint: Endpoint }[] {
  return Object.entries(routeTable).flatMap(([group, endpoints]) =>
    Object.entries(endpoints as Record<string, Endpoint>).map(([name, endpoint]) => ({
      name: `${group}.${name}`,
      endpoint,
    })),
  );
}
