import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { addAgent, addQueue, customerMessage, deliver, tenant, type Tenant } from './fixtures.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let sales: number;
let support: number;
let agent: Awaited<ReturnType<typeof addAgent>>;
let other: Awaited<ReturnType<typeof addAgent>>;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant(server);
  b = await tenant(server);
  sales = await addQueue(server, a.companyId, 'Vendas');
  support = await addQueue(server, a.companyId, 'Suporte');
  agent = await addAgent(server, a.admin, { queueIds: [sales] });
  other = await addAgent(server, a.admin, { queueIds: [support] });
});
afterAll(() => server?.close());

async function inboundTicket(t: Tenant, phone: string, queueId: number | null = null) {
  await deliver(server, t, {
    name: 'message',
    payload: customerMessage(t.whatsappId, phone, { body: `oi de ${phone}` }),
  });
  const [row] = await server.app.ds.query(
    `SELECT t.id FROM tickets t JOIN contacts c ON c.id = t."contactId"
      WHERE c.number = $1 AND t."companyId" = $2 AND t.status <> 'closed'`,
    [phone, t.companyId],
  );
  if (queueId)
    await server.app.ds.query('UPDATE tickets SET "queueId" = $2 WHERE id = $1', [row.id, queueId]);
  return row.id as number;
}

const put = (token: string, id: number, body: unknown) =>
  server.request('PUT', `/tickets/${id}`, { token, body });

describe('ticket transitions (core §4)', () => {
  it('accept, return, finish, reopen and transfer', async () => {
    const id = await inboundTicket(a, '5511922220001', sales);
    const accepted = await put(agent.token, id, { status: 'open', userId: agent.id });
    expect(accepted.body).toMatchObject({ status: 'open', userId: agent.id, queueId: sales });

    const returned = await put(agent.token, id, { status: 'pending', userId: null });
    expect(returned.body).toMatchObject({ status: 'pending', userId: null });

    await put(agent.token, id, { status: 'open', userId: agent.id });
    const closed = await put(agent.token, id, {
      status: 'closed',
      userId: agent.id,
      queueId: sales,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    expect(closed.body).toMatchObject({
      status: 'closed',
      userId: agent.id,
      queueId: sales,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });

    const reopened = await put(a.admin.token, id, { status: 'open', userId: a.admin.id });
    expect(reopened.body).toMatchObject({ status: 'open', userId: a.admin.id, queueId: sales });

    // Queue without a user: pending, user cleared.
    const toQueue = await put(a.admin.token, id, { queueId: support, userId: null });
    expect(toQueue.body).toMatchObject({ status: 'pending', userId: null, queueId: support });
    // Queue and user: the user owns it.
    const toUser = await put(a.admin.token, id, {
      queueId: sales,
      userId: agent.id,
      status: 'open',
    });
    expect(toUser.body).toMatchObject({ status: 'open', userId: agent.id, queueId: sales });
  });

  it('refuses impossible transitions and transfers without a queue', async () => {
    const id = await inboundTicket(a, '5511922220002');
    const ret = await put(a.admin.token, id, { status: 'pending' });
    expect(ret.status).toBe(409);
    expect(ret.body.error).toBe('ERR_INVALID_TICKET_TRANSITION');
    const noQueue = await put(a.admin.token, id, { userId: agent.id });
    expect(noQueue.status).toBe(400);
    expect(noQueue.body).toMatchObject({
      error: 'ERR_TRANSFER_QUEUE_REQUIRED',
      message: 'Selecione uma fila',
    });
    const [row] = await server.app.ds.query('SELECT status, "userId" FROM tickets WHERE id = $1', [
      id,
    ]);
    expect(row).toEqual({ status: 'pending', userId: null });
    const badQueue = await put(a.admin.token, id, { queueId: 999999 });
    expect(badQueue.body.error).toBe('ERR_NO_QUEUE_FOUND');
  });

  it('POST /tickets opens a ticket; a second one answers ERR_OTHER_OPEN_TICKET with owner and queue', async () => {
    const contact = await server.request('POST', '/contacts', {
      token: a.admin.token,
      body: { name: 'Novo Cliente', number: '5511922220003' },
    });
    const noQueue = await server.request('POST', '/tickets', {
      token: agent.token,
      body: { contactId: contact.body.id, whatsappId: a.whatsappId },
    });
    expect(noQueue.body.error).toBe('ERR_TRANSFER_QUEUE_REQUIRED');
    const created = await server.request('POST', '/tickets', {
      token: agent.token,
      body: {
        contactId: contact.body.id,
        queueId: sales,
        whatsappId: a.whatsappId,
        userId: agent.id,
        status: 'open',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'open',
      userId: agent.id,
      queueId: sales,
      contact: { name: 'Novo Cliente' },
    });
    const again = await server.request('POST', '/tickets', {
      token: a.admin.token,
      body: {
        contactId: contact.body.id,
        queueId: sales,
        whatsappId: a.whatsappId,
        userId: a.admin.id,
        status: 'open',
      },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(again.body.details).toMatchObject({
      ticketId: created.body.id,
      user: { id: agent.id },
      queue: { id: sales, name: 'Vendas' },
    });
    const missing = await server.request('POST', '/tickets', {
      token: a.admin.token,
      body: { contactId: 999999, whatsappId: a.whatsappId },
    });
    expect(missing.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it('reopening when another ticket is open answers ERR_OTHER_OPEN_TICKET', async () => {
    const phone = '5511922220004';
    const first = await inboundTicket(a, phone);
    await put(a.admin.token, first, { status: 'closed' });
    const second = await inboundTicket(a, phone);
    expect(second).not.toBe(first);
    const reopen = await put(a.admin.token, first, { status: 'open' });
    expect(reopen.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(reopen.body.details.ticketId).toBe(second);
  });
});

describe('visibility and lists', () => {
  it('non-admins see their queues; allTicket governs tickets without a queue; 403 Acesso não permitido', async () => {
    const inSales = await inboundTicket(a, '5511922220010', sales);
    const inSupport = await inboundTicket(a, '5511922220011', support);
    const noQueue = await inboundTicket(a, '5511922220012');
    const list = await server.request('GET', '/tickets?status=pending', { token: agent.token });
    const ids = list.body.tickets.map((t: { id: number }) => t.id);
    expect(ids).toContain(inSales);
    expect(ids).not.toContain(inSupport);
    expect(ids).not.toContain(noQueue);
    const denied = await server.request('GET', `/tickets/${inSupport}`, { token: agent.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      error: 'ERR_TICKET_ACCESS_DENIED',
      message: 'Acesso não permitido',
    });
    const [{ uuid }] = await server.app.ds.query('SELECT uuid FROM tickets WHERE id = $1', [
      inSupport,
    ]);
    expect((await server.request('GET', `/tickets/u/${uuid}`, { token: agent.token })).status).toBe(
      403,
    );
    expect(
      (await server.request('GET', `/tickets/u/${uuid}`, { token: other.token })).body.id,
    ).toBe(inSupport);
    expect((await put(agent.token, inSupport, { status: 'open' })).status).toBe(403);

    const wide = await addAgent(server, a.admin, { queueIds: [sales], allTicket: 'enabled' });
    const wideIds = (
      await server.request('GET', '/tickets?status=pending', { token: wide.token })
    ).body.tickets.map((t: { id: number }) => t.id);
    expect(wideIds).toContain(noQueue);
    expect(wideIds).not.toContain(inSupport);
    const adminIds = (
      await server.request('GET', '/tickets?status=pending', { token: a.admin.token })
    ).body.tickets.map((t: { id: number }) => t.id);
    expect(adminIds).toEqual(expect.arrayContaining([inSales, inSupport, noQueue]));
  });

  it('filters: open needs showAll for others’ tickets; search by name, number and message text; tags, users, unread; JSON lists', async () => {
    const id = await inboundTicket(a, '5511922220020', sales);
    await put(agent.token, id, { status: 'open' });
    await deliver(server, a, {
      name: 'message',
      payload: customerMessage(a.whatsappId, '5511922220020', { body: 'boleto vencido ontem' }),
    });
    const adminOpen = await server.request('GET', '/tickets?status=open', { token: a.admin.token });
    expect(adminOpen.body.tickets.map((t: { id: number }) => t.id)).not.toContain(id);
    const showAll = await server.request('GET', '/tickets?status=open&showAll=true', {
      token: a.admin.token,
    });
    expect(showAll.body.tickets.map((t: { id: number }) => t.id)).toContain(id);
    const agentShowAll = await server.request('GET', '/tickets?status=open&showAll=true', {
      token: other.token,
    });
    expect(agentShowAll.body.tickets.map((t: { id: number }) => t.id)).not.toContain(id);

    const byText = await server.request(
      'GET',
      `/tickets?searchParam=${encodeURIComponent('boleto')}&showAll=true`,
      { token: a.admin.token },
    );
    expect(byText.body.tickets.map((t: { id: number }) => t.id)).toEqual([id]);
    const byNumber = await server.request('GET', '/tickets?searchParam=922220020&showAll=true', {
      token: a.admin.token,
    });
    expect(byNumber.body.tickets.map((t: { id: number }) => t.id)).toEqual([id]);
    const users = await server.request(
      'GET',
      `/tickets?showAll=true&users=${encodeURIComponent(JSON.stringify([agent.id]))}`,
      { token: a.admin.token },
    );
    expect(users.body.tickets.every((t: { userId: number }) => t.userId === agent.id)).toBe(true);
    const unread = await server.request('GET', '/tickets?showAll=true&withUnreadMessages=true', {
      token: a.admin.token,
    });
    expect(unread.body.tickets.every((t: { unreadMessages: number }) => t.unreadMessages > 0)).toBe(
      true,
    );

    const tag = await server.request('POST', '/tags', {
      token: a.admin.token,
      body: { name: 'VIP', color: '#ff0000' },
    });
    await server.request('POST', '/tags/sync', {
      token: a.admin.token,
      body: { ticketId: id, tags: [{ id: tag.body.id }] },
    });
    const tagged = await server.request(
      'GET',
      `/tickets?showAll=true&tags=${encodeURIComponent(JSON.stringify([tag.body.id]))}`,
      { token: a.admin.token },
    );
    expect(tagged.body.tickets.map((t: { id: number; tags: unknown[] }) => [t.id, t.tags])).toEqual(
      [[id, [{ id: tag.body.id, name: 'VIP', color: '#ff0000' }]]],
    );
    const bad = await server.request('GET', '/tickets?tags=notjson', { token: a.admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
  });

  it('pages with hasMore and a keyset cursor', async () => {
    for (let i = 0; i < 45; i++) await inboundTicket(a, `55119333${String(i).padStart(5, '0')}`);
    const page1 = await server.request('GET', '/tickets?status=pending&pageNumber=1', {
      token: a.admin.token,
    });
    expect(page1.body.tickets).toHaveLength(40);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await server.request('GET', '/tickets?status=pending&pageNumber=2', {
      token: a.admin.token,
    });
    const byCursor = await server.request(
      'GET',
      `/tickets?status=pending&cursor=${page1.body.nextCursor}`,
      { token: a.admin.token },
    );
    expect(byCursor.body.tickets.map((t: { id: number }) => t.id)).toEqual(
      page2.body.tickets.map((t: { id: number }) => t.id),
    );
  });

  it('delete needs ticket-options:deleteTicket', async () => {
    const id = await inboundTicket(a, '5511922220030', sales);
    const denied = await server.request('DELETE', `/tickets/${id}`, { token: agent.token });
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');
    expect(
      (await server.request('DELETE', `/tickets/${id}`, { token: a.admin.token })).status,
    ).toBe(200);
    expect(
      (await server.request('GET', `/tickets/${id}`, { token: a.admin.token })).body.error,
    ).toBe('ERR_NO_TICKET_FOUND');
  });

  it('tenant isolation: B cannot list, read, change or delete A tickets', async () => {
    const id = await inboundTicket(a, '5511922220040', sales);
    const [{ uuid }] = await server.app.ds.query('SELECT uuid FROM tickets WHERE id = $1', [id]);
    const tb = b.admin.token;
    expect((await server.request('GET', `/tickets/${id}`, { token: tb })).status).toBe(404);
    expect((await server.request('GET', `/tickets/u/${uuid}`, { token: tb })).status).toBe(404);
    expect((await put(tb, id, { status: 'open' })).status).toBe(404);
    expect((await server.request('DELETE', `/tickets/${id}`, { token: tb })).status).toBe(404);
    const list = await server.request('GET', '/tickets?showAll=true', { token: tb });
    expect(list.body.tickets.map((t: { id: number }) => t.id)).not.toContain(id);
    const [contact] = await server.app.ds.query('SELECT "contactId" FROM tickets WHERE id = $1', [
      id,
    ]);
    const steal = await server.request('POST', '/tickets', {
      token: tb,
      body: { contactId: contact.contactId, whatsappId: b.whatsappId },
    });
    expect(steal.status).toBe(404);
    const moveToMine = await put(a.admin.token, id, { queueId: sales, whatsappId: b.whatsappId });
    expect(moveToMine.body.error).toBe('ERR_NO_WAPP_FOUND');
  });
});
