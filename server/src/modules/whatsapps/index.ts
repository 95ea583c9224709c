// WhatsApp connections (rows, routes) and `GET /media/:file`.
import { mediaRoutes } from './media.routes.js';
import { WhatsappEntity } from './whatsapp.entity.js';
import { whatsappsRoutes } from './whatsapps.routes.js';
import { defineModule } from '../manifest.js';

export const whatsappsModule = defineModule({
  name: 'whatsapps',
  entities: [WhatsappEntity],
  routers: [whatsappsRoutes, mediaRoutes],
});

// What other modules use (they import this module only through this file).
export { mediaBase, withSignedMedia, withSignedPayload } from './media-links.js';
export { WhatsappEntity } from './whatsapp.entity.js';
export {
  connectionTokenMatches,
  hashConnectionToken,
  newConnectionToken,
  storedToken,
} from './whatsapps.service.js';
