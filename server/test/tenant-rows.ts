import { randomBytes } from 'node:crypto';
import type { ReferenceKind } from '@atende/shared';
import type { TestServer } from './harness.js';
import { addQueue, type Tenant } from './ticketing/fixtures.js';

export type Rows = Record<ReferenceKind, number>;
export const uniq = () => randomBytes(4).toString('hex');

async function insert(server: TestServer, sql: string, params: unknown[]): Promise<number> {
  const [row] = (await server.app.ds.query(`${sql} RETURNING id`, params)) as { id: number }[];
  return row!.id;
}

/** A contact of the company, written straight to the table. */
export const addContact = (server: TestServer, companyId: number, name = 'Cliente') =>
  insert(server, `INSERT INTO contacts ("companyId", name, number) VALUES ($1, $2, $3)`, [
    companyId,
    name,
    `55119${Math.floor(Math.random() * 1e8)}`,
  ]);

/** One row of every kind in a company, written straight to the tables. */
export async function rowsOf(server: TestServer, t: Tenant, agent: number): Promise<Rows> {
  const c = t.companyId;
  const queue = await addQueue(server, c, `Fila ${uniq()}`);
  const contact = await addContact(server, c);
  const ticket = await insert(
    server,
    `INSERT INTO tickets ("companyId", "contactId", "whatsappId", "userId", "queueId", status)
     VALUES ($1, $2, $3, $4, $5, 'open')`,
    [c, contact, t.whatsappId, t.admin.id, queue],
  );
  const message = await insert(
    server,
    `INSERT INTO messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "createdAt")
     VALUES ($1, $2, $3, $4, $5, 'olá', false, now())`,
    [c, ticket, contact, t.whatsappId, `W${uniq()}`],
  );
  const tag = await insert(server, `INSERT INTO tags ("companyId", name) VALUES ($1, $2)`, [
    c,
    `tag ${uniq()}`,
  ]);
  const queueOption = await insert(
    server,
    `INSERT INTO queue_options ("companyId", "queueId", option, title) VALUES ($1, $2, '1', 'Vendas')`,
    [c, queue],
  );
  const quickMessage = await insert(
    server,
    `INSERT INTO quick_messages ("companyId", "userId", shortcode, message) VALUES ($1, $2, $3, 'oi')`,
    [c, t.admin.id, `s${uniq()}`],
  );
  const contactList = await insert(
    server,
    `INSERT INTO contact_lists ("companyId", name) VALUES ($1, $2)`,
    [c, `lista ${uniq()}`],
  );
  const integration = await insert(
    server,
    `INSERT INTO queue_integrations ("companyId", type, name, "urlN8N") VALUES ($1, 'webhook', $2, 'https://hook.example.com')`,
    [c, `Hook ${uniq()}`],
  );
  // A prompt (issue 18), written directly: saving one through the route checks its key.
  const prompt = await insert(
    server,
    `INSERT INTO prompts ("companyId", name, prompt, "apiKeySealed", "queueId")
     VALUES ($1, 'Prompt', 'Você atende.', 'v1.x.x.x.x', $2)`,
    [c, queue],
  );
  return {
    contactList,
    whatsapp: t.whatsappId,
    queue,
    user: agent,
    tag,
    contact,
    ticket,
    message,
    queueOption,
    quickMessage,
    prompt,
    integration,
  };
}
