// Issue 13, item 3: the request shapes the Whaticket SaaS frontend sends (core §7, admin §7),
// one row per implemented call, exactly as that client builds them: `read: 1`, `promptId: false`,
// `queueId: ""`, ids as strings, whole records echoed back on PUT. Every one must be accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { simConnection, until } from './ticketing/fixtures.js';

let server: TestServer;
let admin: Session;
let root: Session;
let companyId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  const company = await createCompanyWithAdmin(server);
  admin = company.admin;
  companyId = company.companyId;
  root = await server.login(ADMIN.email, ADMIN.password);
  const sim = new SimulatorClient(server.url, admin.token);
  ids.whatsapp = await simConnection(server, admin, sim);
  ids.admin = admin.user.id;
  const queue = await server.request('POST', '/queue', {
    token: admin.token,
    body: { name: 'Vendas', color: '#112233' },
  });
  ids.queue = queue.body.id;
  const agent = await server.request('POST', '/users', {
    token: admin.token,
    body: { name: 'Agente Um', email: 'agente.um@empresa.test', password: 'Senha123' },
  });
  ids.agent = agent.body.id;
  await sim.inbound({ whatsappId: ids.whatsapp, from: '5511955550001', name: 'Ana', body: 'oi' });
  ids.ticket = await until(async () => {
    const [row] = await server.app.ds.query(
      `SELECT t.id, t."contactId" FROM tickets t WHERE t."companyId" = $1`,
      [companyId],
    );
    if (row) ids.contact = row.contactId;
    return row?.id as number | undefined;
  }, 10_000);
  const plan = await server.request('POST', '/plans', {
    token: root.token,
    body: { name: `Plano payloads ${Date.now()}`, users: 5, connections: 1, queues: 2, value: 10 },
  });
  ids.plan = plan.body.id;
});
afterAll(() => server?.close());

type Row = [
  string,
  'GET' | 'POST' | 'PUT' | 'DELETE',
  () => string,
  (() => unknown) | undefined,
  ('admin' | 'root')?,
];

/** The Whaticket frontend's calls, in an order that leaves each row something to act on. */
const CALLS: Row[] = [
  // Another user's login: a login ends the user's other sessions, and the rows below use them.
  [
    'login',
    'POST',
    () => '/auth/login',
    () => ({ email: 'agente.um@empresa.test', password: 'Senha123' }),
  ],
  ['version', 'GET', () => '/version', undefined],
  ['plan flags', 'GET', () => `/companies/listPlan/${companyId}`, undefined],
  ['public plans', 'GET', () => '/plans/list', undefined],
  ['sign-up plans', 'GET', () => '/plans/all', undefined],
  ['connections', 'GET', () => `/whatsapp/?session=0&companyId=${companyId}`, undefined],
  ['settings', 'GET', () => '/settings/', undefined],
  ['queues', 'GET', () => `/queue?companyId=${companyId}`, undefined],
  ['users list', 'GET', () => `/users/list?companyId=${companyId}`, undefined],
  ['users page', 'GET', () => '/users/?searchParam=&pageNumber=1', undefined],
  [
    'tickets page',
    'GET',
    () =>
      `/tickets?searchParam=&pageNumber=1&status=pending&showAll=false&withUnreadMessages=false` +
      `&queueIds=${encodeURIComponent(JSON.stringify([ids.queue]))}&tags=%5B%5D&users=%5B%5D`,
    undefined,
  ],
  ['ticket', 'GET', () => `/tickets/${ids.ticket}`, undefined],
  ['thread', 'GET', () => `/messages/${ids.ticket}?pageNumber=1`, undefined],
  [
    'accept',
    'PUT',
    () => `/tickets/${ids.ticket}`,
    () => ({ status: 'open', userId: ids.admin, queueId: ids.queue }),
  ],
  [
    'send text',
    'POST',
    () => `/messages/${ids.ticket}`,
    () => ({ read: 1, fromMe: true, mediaUrl: '', body: 'Olá!', quotedMsg: null }),
  ],
  [
    'transfer to a queue (queue as a string, no user)',
    'PUT',
    () => `/tickets/${ids.ticket}`,
    () => ({ userId: null, queueId: String(ids.queue), status: 'pending' }),
  ],
  [
    'finish (integration flags false)',
    'PUT',
    () => `/tickets/${ids.ticket}`,
    () => ({
      status: 'closed',
      userId: ids.admin,
      useIntegration: false,
      promptId: false,
      integrationId: false,
    }),
  ],
  [
    'reopen',
    'PUT',
    () => `/tickets/${ids.ticket}`,
    () => ({ status: 'open', userId: ids.admin, queueId: ids.queue, promptId: null }),
  ],
  ['contacts page', 'GET', () => '/contacts?searchParam=&pageNumber=1', undefined],
  ['contact', 'GET', () => `/contacts/${ids.contact}`, undefined],
  [
    'new contact',
    'POST',
    () => '/contacts',
    () => ({ name: 'Bruno Lima', number: '5511955550002', email: '', extraInfo: [] }),
  ],
  [
    'edit contact',
    'PUT',
    () => `/contacts/${ids.contact}`,
    () => ({
      name: 'Ana Souza',
      number: '5511955550001',
      email: 'ana@cliente.test',
      extraInfo: [{ name: 'CPF', value: '123' }],
    }),
  ],
  ['tags list', 'GET', () => '/tags/list', undefined],
  ['tags page', 'GET', () => '/tags/?searchParam=&pageNumber=1', undefined],
  [
    'new tag',
    'POST',
    () => '/tags',
    () => ({ name: 'VIP', color: '#A4CCCC', kanban: 0, userId: ids.admin }),
  ],
  [
    'sync tags',
    'POST',
    () => '/tags/sync',
    () => ({ ticketId: ids.ticket, tags: [] as unknown[] }),
  ],
  [
    'note',
    'POST',
    () => '/ticket-notes',
    () => ({ note: 'Cliente pediu retorno', ticketId: ids.ticket, contactId: ids.contact }),
  ],
  [
    'notes',
    'GET',
    () => `/ticket-notes/list?ticketId=${ids.ticket}&contactId=${ids.contact}`,
    undefined,
  ],
  [
    'quick messages',
    'GET',
    () => `/quick-messages/list?companyId=${companyId}&userId=${ids.admin}`,
    undefined,
  ],
  [
    'new user (whatsappId false)',
    'POST',
    () => '/users',
    () => ({
      name: 'Carla Dias',
      email: 'carla@empresa.test',
      password: 'Senha123',
      profile: 'user',
      whatsappId: false,
      queueIds: [ids.queue],
      allTicket: 'desabled',
    }),
  ],
  [
    'edit user (record echoed back, whatsappId "")',
    'PUT',
    () => `/users/${ids.agent}`,
    () => ({
      id: ids.agent,
      name: 'Agente Um',
      email: 'agente.um@empresa.test',
      password: '',
      profile: 'user',
      companyId,
      whatsappId: '',
      queueIds: [String(ids.queue)],
      allTicket: 'enabled',
      createdAt: '2024-01-01T00:00:00.000Z',
    }),
  ],
  [
    'edit queue (promptId null, integrationId "", orderQueue "")',
    'PUT',
    () => `/queue/${ids.queue}`,
    () => ({
      name: 'Vendas',
      color: '#112233',
      greetingMessage: 'Olá',
      outOfHoursMessage: '',
      orderQueue: '',
      integrationId: '',
      promptId: null,
      schedules: [],
    }),
  ],
  [
    'edit connection (prompt null, transfer queue "")',
    'PUT',
    () => `/whatsapp/${ids.whatsapp}`,
    () => ({
      name: 'Atendimento',
      greetingMessage: '',
      complationMessage: '',
      outOfHoursMessage: '',
      ratingMessage: '',
      isDefault: true,
      token: '',
      provider: 'simulator',
      queueIds: [ids.queue],
      transferQueueId: '',
      timeToTransfer: '',
      promptId: null,
      expiresInactiveMessage: '',
      expiresTicket: 0,
      timeUseBotQueues: '0',
      maxUseBotQueues: '3',
    }),
  ],
  [
    'queue option',
    'POST',
    () => '/queue-options',
    () => ({ title: 'Boletos', message: '', option: 1, queueId: ids.queue, parentId: null }),
  ],
  ['queue options', 'GET', () => `/queue-options?queueId=${ids.queue}&parentId=-1`, undefined],
  ['setting', 'PUT', () => '/settings/userRating', () => ({ value: 'disabled' })],
  ['dashboard', 'GET', () => '/dashboard?days=7', undefined],
  [
    'new ticket (queue "")',
    'POST',
    () => '/tickets',
    () => ({
      contactId: String(ids.newContact),
      queueId: '',
      whatsappId: String(ids.whatsapp),
      userId: ids.admin,
      status: 'open',
    }),
  ],
  ['companies list', 'GET', () => '/companies/list', undefined, 'root'],
  ['companies page', 'GET', () => '/companies?searchParam=&pageNumber=1', undefined, 'root'],
  [
    'new company (recurrence "", status as text)',
    'POST',
    () => '/companies',
    () => ({
      name: `Empresa Payload ${Date.now()}`,
      email: `payload${Date.now()}@empresa.test`,
      phone: '',
      planId: String(ids.plan),
      status: 'true',
      campaignsEnabled: false,
      dueDate: '',
      recurrence: '',
    }),
    'root',
  ],
  [
    'new plan',
    'POST',
    () => '/plans',
    () => ({
      name: `Plano Wt ${Date.now()}`,
      users: '3',
      connections: '1',
      queues: '2',
      value: '49.9',
      useCampaigns: true,
      useSchedules: false,
    }),
    'root',
  ],
];

describe('the Whaticket frontend payloads (issue 13, item 3)', () => {
  it.each(CALLS)('%s: %s is accepted', async (_name, method, path, body, who) => {
    const token = (who === 'root' ? root : admin).token;
    const res = await server.request(method, path(), { token, body: body?.() });
    // The new-ticket row needs a contact without a ticket: the one the new-contact row made.
    if (_name === 'new contact') ids.newContact = res.body.id;
    expect(res.body?.error, JSON.stringify(res.body)).not.toBe('ERR_VALIDATION');
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(400);
  });

  it('stores what it accepted strictly: "none" is NULL, strings became numbers', async () => {
    const [user] = await server.app.ds.query('SELECT "whatsappId" FROM users WHERE email = $1', [
      'carla@empresa.test',
    ]);
    expect(user.whatsappId).toBeNull();
    const [queue] = await server.app.ds.query(
      'SELECT "promptId", "integrationId", "orderQueue" FROM queues WHERE id = $1',
      [ids.queue],
    );
    expect(queue).toMatchObject({ promptId: null, integrationId: null });
    const [plan] = await server.app.ds.query(
      'SELECT users, connections FROM plans WHERE name LIKE $1',
      ['Plano Wt %'],
    );
    expect(plan).toEqual({ users: 3, connections: 1 });
  });

  it('still refuses what no client means: a boolean id, a word for a flag', async () => {
    const bad = await server.request('PUT', `/tickets/${ids.ticket}`, {
      token: admin.token,
      body: { queueId: true },
    });
    expect(bad.status).toBe(400);
    const word = await server.request('POST', `/messages/${ids.ticket}`, {
      token: admin.token,
      body: { body: 'x', read: 'talvez' },
    });
    expect(word.status).toBe(400);
  });
});
