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

export const routeTable = {
  contacts: contactEndpoints,
  tickets: ticketEndpoints,
  messages: messageEndpoints,
  notes: noteEndpoints,
  queues: queueEndpoints,
  queueOptions: queueOptionEndpoints,
  quickMessages: quickMessageEndpoints,
  tags: tagEndpoints,
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
