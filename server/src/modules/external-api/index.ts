// The external messages API (issue 18 item 3): `POST /api/messages/send`, `GET /api/messages/:id`
// (authenticated by a connection's token) and the rotation of that token. See CONTEXT.md.
import { defineModule } from '../manifest.js';
import { externalApiRoutes } from './external-api.routes.js';

export const externalApiModule = defineModule({
  name: 'external-api',
  routers: [externalApiRoutes],
});
