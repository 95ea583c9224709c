import { idSchema, type ReferenceKind } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForeignReferences1732240100000 } from '../src/db/migrations/1732240100000-ForeignReferences.js';
import { REFERENCE_TABLES } from '../src/http/references.js';
import { changedTables, fingerprint } from './db-snapshot.js';
import { startTestServer, type Session, type TestServer } from './harness.js';
import { listRoutes, referencesOf, walkSchema } from './routes.js';
import { addContact, rowsOf, uniq, type Rows } from './tenant-rows.js';
import { addAgent, addConnection, tenant, type Tenant } from './ticketing/fixtures.js';

/**
 * Issue 11 item 1: every id a body or query names must be a row of the caller's company.
 * Company B names company A's rows in every reference field of every route: each answer is the
 * same 404 as an id that does not exist, and nothing is written.
 */

let server: TestServer;
let a: Tenant;
let b: Tenant;
let ofA: Rows;
let ofB: Rows;
let agentOfB: Session & { id: number };
let campaignOfB = 0;
/** A chat of company B, owned by its admin (the PUT /chats/:id cases). */
let chatOfB: number;

const MISSING = 2_147_483_000;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  a = await tenant(server);
  b = await tenant(server);
  const agentOfA = await addAgent(server, a.admin);
  agentOfB = await addAgent(server, b.admin);
  ofA = await rowsOf(server, a, agentOfA.id);
  ofB = await rowsOf(server, b, agentOfB.id);
  const campaign = await server.request('POST', '/campaigns', {
    token: b.admin.token,
    body: { name: 'Campanha B' },
  });
  campaignOfB = campaign.body.id;
  chatOfB = (
    await server.request('POST', '/chats', {
      token: b.admin.token,
      body: { title: 'Equipe B', users: [agentOfB.id] },
    })
  ).body.id;
});
afterAll(() => server?.close());

/** A schedule of B's (issue 17), for the PUT /schedules/:id cases. */
let scheduleOfB = 0;
beforeAll(async () => {
  const [row] = (await server.app.ds.query(
    `INSERT INTO schedules ("companyId", body, "sendAt", "contactId")
     VALUES ($1, 'Agendada', '2099-01-01T10:00:00Z', $2) RETURNING id`,
    [b.companyId, ofB.contact],
  )) as { id: number }[];
  scheduleOfB = row!.id;
});

interface Case {
  method: string;
  /** The route's path as express knows it, and the path sent (B's own ids). */
  route: string;
  path: () => string;
  field: string;
  kind: ReferenceKind;
  /** The request with `id` in the field under test and B's own rows everywhere else. */
  body?: (id: number) => unknown;
  query?: (id: number) => Record<string, string | number>;
}

const newUser = () => ({ name: 'Agente X', email: `x-${uniq()}@b.test`, password: 'Senha123' });

const CASES: Case[] = [
  // prompts (issue 18): the queue a prompt belongs to
  {
    method: 'POST',
    route: '/prompt',
    path: () => '/prompt',
    field: 'queueId',
    kind: 'queue',
    // The key check asks the server named (here this one, which has no /v1/models): a 4xx.
    body: (id) => ({
      name: 'P',
      prompt: 'x',
      apiKey: 'sk-0123456789abcdef',
      baseUrl: `${server.url}/v1`,
      queueId: id,
    }),
  },
  {
    method: 'PUT',
    route: '/prompt/:id',
    path: () => `/prompt/${ofB.prompt}`,
    field: 'queueId',
    kind: 'queue',
    body: (id) => ({ queueId: id }),
  },
  // users
  {
    method: 'POST',
    route: '/users',
    path: () => '/users',
    field: 'whatsappId',
    kind: 'whatsapp',
    body: (id) => ({ ...newUser(), whatsappId: id }),
  },
  {
    method: 'POST',
    route: '/users',
    path: () => '/users',
    field: 'queueIds[]',
    kind: 'queue',
    body: (id) => ({ ...newUser(), queueIds: [ofB.queue, id] }),
  },
  {
    method: 'PUT',
    route: '/users/:id',
    path: () => `/users/${agentOfB.id}`,
    field: 'whatsappId',
    kind: 'whatsapp',
    body: (id) => ({ whatsappId: id }),
  },
  {
    method: 'PUT',
    route: '/users/:id',
    path: () => `/users/${agentOfB.id}`,
    field: 'queueIds[]',
    kind: 'queue',
    body: (id) => ({ queueIds: [id] }),
  },
  // tickets
  {
    method: 'POST',
    route: '/tickets',
    path: () => '/tickets',
    field: 'contactId',
    kind: 'contact',
    body: (id) => ({ contactId: id, status: 'open' }),
  },
  {
    method: 'POST',
    route: '/tickets',
    path: () => '/tickets',
    field: 'queueId',
    kind: 'queue',
    body: (id) => ({ contactId: ofB.contact, queueId: id }),
  },
  {
    method: 'POST',
    route: '/tickets',
    path: () => '/tickets',
    field: 'whatsappId',
    kind: 'whatsapp',
    body: (id) => ({ contactId: ofB.contact, whatsappId: id }),
  },
  {
    method: 'POST',
    route: '/tickets',
    path: () => '/tickets',
    field: 'userId',
    kind: 'user',
    body: (id) => ({ contactId: ofB.contact, userId: id }),
  },
  ...(['userId', 'queueId', 'whatsappId', 'promptId', 'integrationId'] as const).map(
    (field): Case => ({
      method: 'PUT',
      route: '/tickets/:id',
      path: () => `/tickets/${ofB.ticket}`,
      field,
      kind: field.slice(0, -2) as ReferenceKind,
      body: (id) => ({ [field]: id }),
    }),
  ),
  // messages
  {
    method: 'POST',
    route: '/messages/:ticketId',
    path: () => `/messages/${ofB.ticket}`,
    field: 'quotedMsg',
    kind: 'message',
    body: (id) => ({ body: 'resposta', quotedMsg: id }),
  },
  {
    method: 'POST',
    route: '/messages/:ticketId',
    path: () => `/messages/${ofB.ticket}`,
    field: 'quotedMsg.id',
    kind: 'message',
    body: (id) => ({ body: 'resposta', quotedMsg: { id, body: 'citada' } }),
  },
  // notes
  {
    method: 'POST',
    route: '/ticket-notes',
    path: () => '/ticket-notes',
    field: 'ticketId',
    kind: 'ticket',
    body: (id) => ({ note: 'Observação', ticketId: id, contactId: ofB.contact }),
  },
  {
    method: 'POST',
    route: '/ticket-notes',
    path: () => '/ticket-notes',
    field: 'contactId',
    kind: 'contact',
    body: (id) => ({ note: 'Observação', ticketId: ofB.ticket, contactId: id }),
  },
  {
    method: 'GET',
    route: '/ticket-notes/list',
    path: () => '/ticket-notes/list',
    field: 'ticketId',
    kind: 'ticket',
    query: (id) => ({ ticketId: id, contactId: ofB.contact }),
  },
  {
    method: 'GET',
    route: '/ticket-notes/list',
    path: () => '/ticket-notes/list',
    field: 'contactId',
    kind: 'contact',
    query: (id) => ({ ticketId: ofB.ticket, contactId: id }),
  },
  // tags of a ticket
  {
    method: 'POST',
    route: '/tags/sync',
    path: () => '/tags/sync',
    field: 'ticketId',
    kind: 'ticket',
    body: (id) => ({ ticketId: id, tags: [ofB.tag] }),
  },
  {
    method: 'POST',
    route: '/tags/sync',
    path: () => '/tags/sync',
    field: 'tags[]',
    kind: 'tag',
    body: (id) => ({ ticketId: ofB.ticket, tags: [ofB.tag, id] }),
  },
  {
    method: 'POST',
    route: '/tags/sync',
    path: () => '/tags/sync',
    field: 'tags[].id',
    kind: 'tag',
    body: (id) => ({ ticketId: ofB.ticket, tags: [{ id, name: 'alheia' }] }),
  },
  // queues
  ...(['promptId', 'integrationId'] as const).flatMap((field): Case[] => [
    {
      method: 'POST',
      route: '/queue',
      path: () => '/queue',
      field,
      kind: field.slice(0, -2) as ReferenceKind,
      body: (id) => ({ name: `Fila ${uniq()}`, color: `#${uniq().slice(0, 6)}`, [field]: id }),
    },
    {
      method: 'PUT',
      route: '/queue/:id',
      path: () => `/queue/${ofB.queue}`,
      field,
      kind: field.slice(0, -2) as ReferenceKind,
      body: (id) => ({ [field]: id }),
    },
  ]),
  // queue integrations
  {
    method: 'POST',
    route: '/queueIntegration/testSession',
    path: () => '/queueIntegration/testSession',
    field: 'id',
    kind: 'integration',
    body: (id) => ({ id }),
  },
  {
    method: 'GET',
    route: '/queueIntegration/deliveries',
    path: () => '/queueIntegration/deliveries',
    field: 'integrationId',
    kind: 'integration',
    query: (id) => ({ integrationId: id }),
  },
  // queue options
  {
    method: 'GET',
    route: '/queue-options',
    path: () => '/queue-options',
    field: 'queueId',
    kind: 'queue',
    query: (id) => ({ queueId: id }),
  },
  {
    method: 'GET',
    route: '/queue-options',
    path: () => '/queue-options',
    field: 'parentId',
    kind: 'queueOption',
    query: (id) => ({ queueId: ofB.queue, parentId: id }),
  },
  {
    method: 'POST',
    route: '/queue-options',
    path: () => '/queue-options',
    field: 'queueId',
    kind: 'queue',
    body: (id) => ({ queueId: id, option: '7', title: 'Nova' }),
  },
  {
    method: 'POST',
    route: '/queue-options',
    path: () => '/queue-options',
    field: 'parentId',
    kind: 'queueOption',
    body: (id) => ({ queueId: ofB.queue, parentId: id, option: '8' }),
  },
  {
    method: 'PUT',
    route: '/queue-options/:id',
    path: () => `/queue-options/${ofB.queueOption}`,
    field: 'parentId',
    kind: 'queueOption',
    body: (id) => ({ parentId: id }),
  },
  // connections
  ...(
    [
      ['queueIds[]', 'queue', (id: number) => ({ queueIds: [id] })],
      ['transferQueueId', 'queue', (id: number) => ({ transferQueueId: id, timeToTransfer: 5 })],
      ['promptId', 'prompt', (id: number) => ({ promptId: id })],
    ] as const
  ).flatMap(([field, kind, fields]): Case[] => [
    {
      method: 'POST',
      route: '/whatsapp',
      path: () => '/whatsapp',
      field,
      kind,
      body: (id) => ({ name: `Conexão ${uniq()}`, provider: 'simulator', ...fields(id) }),
    },
    {
      method: 'PUT',
      route: '/whatsapp/:id',
      path: () => `/whatsapp/${b.whatsappId}`,
      field,
      kind,
      body: fields,
    },
  ]),
  // contact lists (issue 16)
  {
    method: 'GET',
    route: '/contact-list-items',
    path: () => '/contact-list-items',
    field: 'contactListId',
    kind: 'contactList',
    query: (id) => ({ contactListId: id }),
  },
  {
    method: 'POST',
    route: '/contact-list-items',
    path: () => '/contact-list-items',
    field: 'contactListId',
    kind: 'contactList',
    body: (id) => ({ name: 'Cliente', number: '11987654321', contactListId: id }),
  },
  // campaigns (issue 16)
  {
    method: 'POST',
    route: '/campaigns',
    path: () => '/campaigns',
    field: 'whatsappId',
    kind: 'whatsapp',
    body: (id) => ({ name: 'Campanha X', whatsappId: id }),
  },
  {
    method: 'POST',
    route: '/campaigns',
    path: () => '/campaigns',
    field: 'contactListId',
    kind: 'contactList',
    body: (id) => ({ name: 'Campanha X', contactListId: id }),
  },
  {
    method: 'POST',
    route: '/campaigns',
    path: () => '/campaigns',
    field: 'tagListId',
    kind: 'tag',
    body: (id) => ({ name: 'Campanha X', tagListId: id }),
  },
  {
    method: 'PUT',
    route: '/campaigns/:id',
    path: () => `/campaigns/${campaignOfB}`,
    field: 'whatsappId',
    kind: 'whatsapp',
    body: (id) => ({ name: 'Campanha X', whatsappId: id }),
  },
  {
    method: 'PUT',
    route: '/campaigns/:id',
    path: () => `/campaigns/${campaignOfB}`,
    field: 'contactListId',
    kind: 'contactList',
    body: (id) => ({ name: 'Campanha X', contactListId: id }),
  },
  {
    method: 'PUT',
    route: '/campaigns/:id',
    path: () => `/campaigns/${campaignOfB}`,
    field: 'tagListId',
    kind: 'tag',
    body: (id) => ({ name: 'Campanha X', tagListId: id }),
  },
  // schedules (issue 17)
  ...(['contactId', 'ticketId', 'whatsappId'] as const).flatMap((field): Case[] => [
    {
      method: 'POST',
      route: '/schedules',
      path: () => '/schedules',
      field,
      kind: field.slice(0, -2) as ReferenceKind,
      body: (id) => ({
        body: 'Mensagem agendada',
        sendAt: '2099-01-01T10:00:00Z',
        contactId: ofB.contact,
        [field]: id,
      }),
    },
    {
      method: 'PUT',
      route: '/schedules/:id',
      path: () => `/schedules/${scheduleOfB}`,
      field,
      kind: field.slice(0, -2) as ReferenceKind,
      body: (id) => ({ [field]: id }),
    },
  ]),
  // kanban (issue 17)
  ...(['fromTagId', 'toTagId'] as const).map((field): Case => ({
    method: 'PUT',
    route: '/ticket-tags/:ticketId/kanban',
    path: () => `/ticket-tags/${ofB.ticket}/kanban`,
    field,
    kind: 'tag',
    body: (id) => ({ fromTagId: null, toTagId: null, [field]: id }),
  })),
  // internal chat (issue 17): members, as ids or as Whaticket's {id, name} objects
  ...(['POST', 'PUT'] as const).flatMap((method): Case[] =>
    (['users[]', 'users[].id'] as const).map((field) => ({
      method,
      route: method === 'POST' ? '/chats' : '/chats/:id',
      path: () => (method === 'POST' ? '/chats' : `/chats/${chatOfB}`),
      field,
      kind: 'user',
      body: (id) => ({
        title: 'Equipe',
        users: field === 'users[]' ? [agentOfB.id, id] : [{ id: agentOfB.id }, { id, name: 'x' }],
      }),
    })),
  ),
];

/** Body and query id fields that are not references, and why. */
const NOT_REFERENCES = new Set([
  // A file list has no reference kind yet: the campaign handler checks it belongs to the caller
  // (ERR_CAMPAIGN_FILE_LIST_NOT_FOUND, server/test/campaigns.test.ts).
  'POST /campaigns body.fileListId',
  'PUT /campaigns/:id body.fileListId',
  // An invoice has no reference kind: the checkout reads it through the company's scope, so
  // another company's invoice is a 404 (server/test/billing-routes.test.ts). A Pix end-to-end id
  // is the central bank's transfer id, not a row of ours.
  'POST /subscription body.invoiceId',
  'POST /invoices/:id/confirm body.endToEndId',
  // Whaticket sends the reader; it is ignored: the reader is the token's user (issue 17).
  'POST /chats/:id/read body.userId',
  'POST /companies body.planId', // plans are the platform's, shared by every company
  'PUT /companies/:id body.planId',
  'POST /companies/cadastro body.planId',
  'POST /contacts body.extraInfo[].id', // ignored: the list replaces the contact's fields
  'PUT /contacts/:id body.extraInfo[].id',
  // Filters of a list the tenant scope already restricts: another company's id matches nothing,
  // like a missing one; a 404 would break an agent's list when an admin deletes a queue or tag.
  'GET /tickets query.tags',
  'GET /tickets query.users',
  'GET /tickets query.queueIds',
  'GET /schedules query.contactId',
  'GET /ticket/kanban query.queueIds',
  'GET /ticket/kanban query.queueIds[]',
  // Accepted for Whaticket clients and ignored: the company and user are the caller's (core §7).
  'GET /quick-messages/list query.companyId',
  'GET /quick-messages/list query.userId',
  'GET /whatsapp query.companyId',
  'GET /whatsapp/:id query.companyId',
  'GET /dashboard/ticketsUsers query.companyId',
  'GET /dashboard/ticketsDay query.companyId',
  'GET /users/list query.companyId',
  'GET /contacts/list query.companyId',
  'GET /queue query.companyId',
  // Not row ids: a plan's user count, and the client's own idempotency key for a message.
  'POST /plans body.users',
  'PUT /plans/:id body.users',
  'POST /messages/:ticketId body.clientId',
  // A keyset cursor over the caller's own dead letters (the list is company-scoped).
  'GET /whatsapp/:whatsappId/dead-letters query.before',
  // Contact and file lists (issue 16): Whaticket sends the company, ignored; an item stays in
  // its list; a file list's option ids are checked against that list by the handler.
  'GET /contact-lists/list query.companyId',
  'POST /contact-list-items body.companyId',
  'PUT /contact-list-items/:id body.companyId',
  'PUT /contact-list-items/:id body.contactListId',
  'POST /files body.options[].id',
  'PUT /files/:id body.options[].id',
]);
/** A field named like an id (`id`, `…Id`, `…Ids`, the lists `tags`/`users`, `quotedMsg`). */
const ID_NAMED = /(^id|Id|Ids)$|^(tags|users|quotedMsg)$/;
const lastSegment = (path: string) =>
  path
    .replace(/(\[\]|\{\})/g, '')
    .split('.')
    .pop() ?? '';
/** The simulator plays WhatsApp and checks the connection against the caller's company itself. */
const isSimulator = (path: string) => path.startsWith('/simulator');

const key = (c: { method: string; route: string; field: string }, where: string) =>
  `${c.method} ${c.route} ${where}.${c.field}`;

async function send(c: Case, id: number) {
  const params = Object.entries(c.query?.(id) ?? {}).map(([k, v]): [string, string] => [
    k,
    String(v),
  ]);
  const query = params.length ? `?${new URLSearchParams(params)}` : '';
  return server.request(c.method, c.path() + query, { token: b.admin.token, body: c.body?.(id) });
}

describe('references to another company (issue 11 item 1)', () => {
  it('cover every reference field of every route (read from the router)', () => {
    const routes = listRoutes(server.app);
    expect(routes.length).toBeGreaterThan(80);
    const marked = new Set<string>();
    const unmarkedIds: string[] = [];
    const fields = new Set<string>();
    for (const r of routes) {
      if (!r.spec || isSimulator(r.path)) continue;
      for (const where of ['body', 'query'] as const) {
        const schema = r.spec[where];
        for (const [field, kind] of referencesOf(schema)) {
          marked.add(key({ method: r.method, route: r.path, field }, where));
          expect(REFERENCE_TABLES[kind]).toBeDefined();
        }
        // Every id-shaped field is a reference or named above with its reason.
        if (!schema) continue;
        const refs = [...referencesOf(schema).keys()];
        // A list or object field counts as marked when the ids inside it are (`queueIds[]`).
        const isRef = (path: string) =>
          refs.some((p) => p === path || p.startsWith(`${path}[`) || p.startsWith(`${path}.`));
        walkSchema(schema, (node, path) => {
          const k = key({ method: r.method, route: r.path, field: path }, where);
          fields.add(k);
          const idLike = node === idSchema || ID_NAMED.test(lastSegment(path));
          if (idLike && !NOT_REFERENCES.has(k) && !isRef(path)) unmarkedIds.push(k);
        });
      }
    }
    expect([...new Set(unmarkedIds)]).toEqual([]);
    // Each exception above still names a field of the router (none outlives its route).
    expect([...NOT_REFERENCES].filter((k) => !fields.has(k))).toEqual([]);
    const tested = new Set(CASES.map((c) => key(c, c.query ? 'query' : 'body')));
    expect([...marked].filter((k) => !tested.has(k))).toEqual([]);
    expect([...tested].filter((k) => !marked.has(k))).toEqual([]);
  });

  it.each(CASES.map((c) => [key(c, c.query ? 'query' : 'body'), c] as const))(
    '%s: 404 like a missing row, nothing written',
    async (_name, c) => {
      const before = await fingerprint(server.app.ds);
      const foreign = await send(c, ofA[c.kind]);
      const missing = await send(c, MISSING);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe(REFERENCE_TABLES[c.kind].notFound);
      // The same answer as an id that exists nowhere: another tenant's ids cannot be probed.
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(foreign.body);
      expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
    },
  );

  it("refuses a user's whatsappId on company A's connection: B cannot send through A's number", async () => {
    const set = await server.request('PUT', `/users/${agentOfB.id}`, {
      token: b.admin.token,
      body: { whatsappId: a.whatsappId },
    });
    expect(set.status).toBe(404);
    expect(set.body.error).toBe('ERR_NO_WAPP_FOUND');
    const [row] = (await server.app.ds.query('SELECT "whatsappId" FROM users WHERE id = $1', [
      agentOfB.id,
    ])) as { whatsappId: number | null }[];
    expect(row!.whatsappId).toBeNull();
    // The agent's new tickets go out through B's own number, never A's.
    const contact = await addContact(server, b.companyId, 'Novo');
    const opened = await server.request('POST', '/tickets', {
      token: b.admin.token,
      body: { contactId: contact, userId: agentOfB.id, status: 'open' },
    });
    expect(opened.status).toBe(201);
    expect(opened.body.whatsappId).toBe(b.whatsappId);
    // What is sent on it is stored and queued on B's connection, never A's.
    const sent = await server.request('POST', `/messages/${opened.body.id}`, {
      token: b.admin.token,
      body: { body: 'Olá, aqui é a empresa B' },
    });
    expect(sent.status).toBeLessThan(300);
    const written = (await server.app.ds.query(
      `SELECT "whatsappId" FROM messages WHERE "ticketId" = $1 AND "fromMe"`,
      [opened.body.id],
    )) as { whatsappId: number }[];
    expect(written.map((m) => m.whatsappId)).toEqual([b.whatsappId]);
    // The same change with B's own connection is accepted: the refusal above is the check.
    const second = await addConnection(server, b.companyId, 'Segunda');
    const own = await server.request('PUT', `/users/${agentOfB.id}`, {
      token: b.admin.token,
      body: { whatsappId: second },
    });
    expect(own.status).toBe(200);
    expect(own.body.whatsappId).toBe(second);
  });

  it("accepts each request with B's own rows (the 404s above come from the foreign id)", async () => {
    for (const c of CASES) {
      if (c.kind === 'prompt') continue;
      const res = await send(c, ofB[c.kind]);
      expect(
        res.status,
        `${key(c, c.query ? 'query' : 'body')}: ${JSON.stringify(res.body)}`,
      ).not.toBe(404);
      expect(res.status).toBeLessThan(500);
    }
  });
});

describe('pointers written before the check (migration 1732240100000)', () => {
  it("clears every pointer from company B's rows to company A's, and keeps B's own", async () => {
    const db = server.app.ds;
    const one = async <T>(sql: string, params: unknown[]) =>
      ((await db.query(sql, params)) as T[])[0]!;
    // B's rows pointing at A's, as the API let an admin of B write them before the check.
    await db.query(`UPDATE users SET "whatsappId" = $2 WHERE id = $1`, [agentOfB.id, a.whatsappId]);
    await db.query(
      `INSERT INTO user_queues ("userId", "queueId") VALUES ($1, $2), ($1, $3) ON CONFLICT DO NOTHING`,
      [agentOfB.id, ofA.queue, ofB.queue],
    );
    await db.query(`UPDATE whatsapps SET "transferQueueId" = $2 WHERE id = $1`, [
      b.whatsappId,
      ofA.queue,
    ]);
    await db.query(
      `INSERT INTO whatsapp_queues ("whatsappId", "queueId") VALUES ($1, $2), ($1, $3) ON CONFLICT DO NOTHING`,
      [b.whatsappId, ofA.queue, ofB.queue],
    );
    const foreignTicket = await one<{ id: number }>(
      `INSERT INTO tickets ("companyId", "contactId", "whatsappId", "userId", "queueId", status)
       VALUES ($1, $2, $3, $4, $5, 'pending') RETURNING id`,
      [b.companyId, await addContact(server, b.companyId), a.whatsappId, a.admin.id, ofA.queue],
    );
    await db.query(
      `INSERT INTO ticket_tags ("ticketId", "tagId") VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING`,
      [foreignTicket.id, ofA.tag, ofB.ticket, ofB.tag],
    );
    const quoting = await one<{ id: number }>(
      `INSERT INTO messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "quotedMsgId", "createdAt")
       SELECT "companyId", "ticketId", "contactId", "whatsappId", $2, 'citando', true, $3, now()
         FROM messages WHERE id = $1 RETURNING id`,
      [ofB.message, `Q${uniq()}`, ofA.message],
    );
    const ownQuote = await one<{ id: number }>(
      `INSERT INTO messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "quotedMsgId", "createdAt")
       SELECT "companyId", "ticketId", "contactId", "whatsappId", $2, 'citando', true, $1, now()
         FROM messages WHERE id = $1 RETURNING id`,
      [ofB.message, `Q${uniq()}`],
    );
    const aBefore = await fingerprint(db);

    const runner = db.createQueryRunner();
    try {
      await new ForeignReferences1732240100000().up(runner);
    } finally {
      await runner.release();
    }

    expect(await one(`SELECT "whatsappId" FROM users WHERE id = $1`, [agentOfB.id])).toEqual({
      whatsappId: null,
    });
    expect(
      await db.query(`SELECT "queueId" FROM user_queues WHERE "userId" = $1`, [agentOfB.id]),
    ).toEqual([{ queueId: ofB.queue }]);
    expect(
      await one(`SELECT "transferQueueId" FROM whatsapps WHERE id = $1`, [b.whatsappId]),
    ).toEqual({ transferQueueId: null });
    expect(
      await db.query(`SELECT "queueId" FROM whatsapp_queues WHERE "whatsappId" = $1`, [
        b.whatsappId,
      ]),
    ).toEqual([{ queueId: ofB.queue }]);
    expect(
      await one(`SELECT "whatsappId", "userId", "queueId" FROM tickets WHERE id = $1`, [
        foreignTicket.id,
      ]),
    ).toEqual({ whatsappId: null, userId: null, queueId: null });
    expect(
      await db.query(`SELECT "tagId" FROM ticket_tags WHERE "ticketId" IN ($1, $2)`, [
        foreignTicket.id,
        ofB.ticket,
      ]),
    ).toEqual([{ tagId: ofB.tag }]);
    expect(
      await db.query(`SELECT id, "quotedMsgId" FROM messages WHERE id IN ($1, $2) ORDER BY id`, [
        quoting.id,
        ownQuote.id,
      ]),
    ).toEqual([
      { id: quoting.id, quotedMsgId: null },
      { id: ownQuote.id, quotedMsgId: ofB.message },
    ]);
    // B's own ticket keeps its connection, user and queue.
    expect(
      await one(`SELECT "whatsappId", "queueId" FROM tickets WHERE id = $1`, [ofB.ticket]),
    ).toEqual({ whatsappId: b.whatsappId, queueId: ofB.queue });
    // Only the tables holding those pointers changed.
    expect(changedTables(aBefore, await fingerprint(db)).sort()).toEqual([
      'messages',
      'ticket_tags',
      'tickets',
      'user_queues',
      'users',
      'whatsapp_queues',
      'whatsapps',
    ]);
  });
});
