/** The real server for the end-to-end tests: simulator on, serving the web build at `/`. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { createCompanyWithAdmin } from '../../server/test/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { SimulatorClient } from '../../server/test/simulator-client.js';
import { addQueue, simConnection, until } from '../../server/test/ticketing/fixtures.js';
import { CHROMIUM_PATH } from './browser.js';

export const WEB_DIR = fileURLToPath(new URL('../dist/web', import.meta.url));
export const hasChromium = existsSync(CHROMIUM_PATH);
export { until };

/** A 1×1 PNG, as a customer's photo and an agent's attachment. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export interface World {
  server: TestServer;
  sim: SimulatorClient;
  whatsappId: number;
  /** The company's first admin: drives the API and the simulator (never signs in in a browser). */
  apiToken: string;
  sales: number;
  support: number;
  /** People who sign in through the browser. */
  agent: { email: string; password: string; name: string };
  admin: { email: string; password: string; name: string };
}

async function addUser(
  server: TestServer,
  token: string,
  user: { name: string; profile: 'admin' | 'user'; queueIds: number[] },
) {
  const email = `${user.name.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}@empresa.test`;
  const password = 'Senha123';
  const res = await server.request('POST', '/users', {
    token,
    body: { ...user, email, password, allTicket: 'desabled' },
  });
  if (res.status !== 201) throw new Error(`user: ${JSON.stringify(res.body)}`);
  return { email, password, name: user.name };
}

export async function startWorld(): Promise<World> {
  const server = await startTestServer({ SIMULATOR: 'on', WEB_DIR });
  const company = await createCompanyWithAdmin(server);
  const apiToken = company.admin.token;
  const sim = new SimulatorClient(server.url, apiToken);
  const whatsappId = await simConnection(server, company.admin, sim);
  const sales = await addQueue(server, company.companyId, 'Vendas');
  const support = await addQueue(server, company.companyId, 'Suporte');
  const admin = await addUser(server, apiToken, {
    name: 'Ana Admin',
    profile: 'admin',
    queueIds: [sales],
  });
  const agent = await addUser(server, apiToken, {
    name: 'Bruno Agente',
    profile: 'user',
    queueIds: [support],
  });
  return { server, sim, whatsappId, apiToken, sales, support, agent, admin };
}

/** The open ticket of a customer's number, read from the database. */
export function ticketOf(world: World, phone: string) {
  return until(async () => {
    const [row] = (await world.server.app.ds.query(
      `SELECT t.id, t.uuid, t."queueId" FROM tickets t JOIN contacts c ON c.id = t."contactId"
        WHERE c.number = $1 AND t.status <> 'closed'`,
      [phone],
    )) as { id: number; uuid: string; queueId: number | null }[];
    return row;
  }, 15_000);
}

/** What the platform sent to WhatsApp, once `match` finds it. */
export function sentTo(world: World, match: (out: any) => boolean) {
  return world.sim.until(
    async () => (await world.sim.outbound(world.whatsappId)).find(match),
    15_000,
  );
}

export async function expectText(page: Page, text: string | RegExp, timeout = 15_000) {
  await page.getByText(text).first().waitFor({ state: 'visible', timeout });
}
