import { allEndpoints, type Endpoint } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { listRoutes, type ListedRoute } from './routes.js';

/**
 * Routes not declared in the shared table: none since the rb branch moved the last groups
 * (contacts, tickets, messages, notes, queues, queue options, quick messages). Every route must
 * come from the table; this list stays empty.
 */
const NOT_YET_IN_TABLE = new Set<string>();

let server: TestServer;
let routes: ListedRoute[];
beforeAll(async () => {
  server = await startTestServer();
  routes = listRoutes(server.app);
});
afterAll(() => server?.close());

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const table = allEndpoints();
const nameOf = new Map<Endpoint, string>(table.map((e) => [e.endpoint, e.name]));

describe('the route table is the list of routes (issue 12 item 2)', () => {
  it('declares each method and path once', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const { name, endpoint } of table) {
      const k = key(endpoint.method, endpoint.path);
      if (seen.has(k)) twice.push(`${k}: ${seen.get(k)} and ${name}`);
      seen.set(k, name);
    }
    expect(twice).toEqual([]);
  });

  it('serves every express route from an endpoint of the table, with its method and path', () => {
    expect(routes.length).toBeGreaterThan(table.length / 2);
    const outside: string[] = [];
    const wrong: string[] = [];
    for (const route of routes) {
      const k = key(route.method, route.path);
      const name = route.spec && nameOf.get(route.spec as Endpoint);
      if (!name) {
        if (!NOT_YET_IN_TABLE.has(k)) outside.push(k);
        continue;
      }
      const endpoint = route.spec as Endpoint;
      if (key(endpoint.method, endpoint.path) !== k) {
        wrong.push(`${k} is served with ${name} (${key(endpoint.method, endpoint.path)})`);
      }
    }
    expect(outside, 'routes registered without the shared route table').toEqual([]);
    expect(wrong).toEqual([]);
  });

  it('registers every endpoint of the table exactly once', () => {
    const counts = new Map<Endpoint, number>();
    for (const route of routes) {
      if (route.spec && nameOf.has(route.spec as Endpoint)) {
        counts.set(route.spec as Endpoint, (counts.get(route.spec as Endpoint) ?? 0) + 1);
      }
    }
    const wrong = table
      .filter(({ endpoint }) => counts.get(endpoint) !== 1)
      .map(
        ({ name, endpoint }) =>
          `${name} ${key(endpoint.method, endpoint.path)}: ${counts.get(endpoint) ?? 0}`,
      );
    expect(wrong).toEqual([]);
  });

  it('keeps the allowlist to routes that still exist outside the table', () => {
    // A route of the list that moved onto the table (or was removed) leaves the list.
    const stale = [...NOT_YET_IN_TABLE].filter(
      (k) => !routes.some((r) => key(r.method, r.path) === k && !nameOf.has(r.spec as Endpoint)),
    );
    expect(stale).toEqual([]);
  });
});
