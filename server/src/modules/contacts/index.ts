// Contacts: phone/LID identities, sheet import and export.
import { ContactEntity } from './contact.entity.js';
import { contactsRoutes } from './contacts.routes.js';
import { defineModule } from '../manifest.js';

export const contactsModule = defineModule({
  name: 'contacts',
  entities: [ContactEntity],
  routers: [contactsRoutes],
});

// What other modules use (they import this module only through this file).
export { upsertContact } from './identities.js';
export { contactChange, loadContacts } from './contacts.service.js';
export { assertTicketContactOnWhatsApp } from './on-whatsapp.js';
export {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_EXPANDED_BYTES,
  sheetKindOf,
  sheetMatches,
  zipExpandedBytes,
  type SheetKind,
} from './contacts.import.js';
