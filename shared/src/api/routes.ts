/**
 * The route table: every HTTP endpoint of the server, by feature. The server registers its
 * handlers from it (`serve()`), the renderer calls it (`api.call()`), `npm run openapi` documents
 * it. A feature adds its group here.
 */
import type { Endpoint } from './endpoint.js';
import { tagEndpoints } from './tags.js';

export const routeTable = {
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
