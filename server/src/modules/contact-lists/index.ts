// Contact lists and their items (issue 16): CRUD, spreadsheet imports as durable jobs, the
// WhatsApp number check of the items. Campaigns read a list's members through `listAudience`.
import { defineModule } from '../manifest.js';
import { contactListsRoutes } from './contact-lists.routes.js';
import { startContactListJobs } from './imports.js';

export const contactListsModule = defineModule({
  name: 'contact-lists',
  routers: [contactListsRoutes],
  workers: [(app) => startContactListJobs(app)],
});

// What other modules may use (they import this module only through this file).
export {
  contactListOf,
  listAudience,
  type AudienceMember,
  type ContactListRow,
} from './contact-lists.service.js';
export { canonicalNumber } from './numbers.js';
