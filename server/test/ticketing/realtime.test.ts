import '../../src/modules/messages/inbound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import {
  addAgent,
  addQueue,
  collect,
  customerMessage,
  deliver,
  emitAck,
  socketOf,
  tenant,
  until,
  type Tenant,
} from './fixtures.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let sales: number;
let support: number;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant(server);
  b = await tenant(server);
  sales = await addQueue(server, a.companyId, 'Vendas');
  support = await addQueue(server, a.companyId, 'Suporte');
});
afterAll(() => server?.close());

async function ticketIn(t: Tenant, phone: string, queueId: number | null) {
  await deliver(server, t, { name: 'message', payload: customerMessage(t.whatsappId, phone) });
  const [row] = await server.app.ds.query(
    `SELECT t.id FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE c.number = $1 AND t."companyId" = $2`,
    [phone, t.companyId],
  );
  await server.request('PUT', `/tickets/${row.id}`, {
    token: t.admin.token,
    body: { queueId, userId: null },
  });
  return row.id as number;
}

describe('realtime visibility and the change feed', () => {
  it('a socket receives only tickets and messages its user may see, each with its seq; B receives nothing of A', async () => {
    const agent = await addAgent(server, a.admin, { queueIds: [sales] });
    const sAgent = await socketOf(server, agent.token);
    const sAdmin = await socketOf(server, a.admin.token);
    const sB = await socketOf(server, b.admin.token);
    for (const s of [sAgent, sAdmin, sB]) {
      expect(await emitAck(s, 'joinTickets', 'pending')).toEqual({ ok: true });
      expect(await emitAck(s, 'joinNotification')).toEqual({ ok: true });
    }
    const agentTickets = collect(sAgent, `company-${a.companyId}-ticket`);
    const agentMessages = collect(sAgent, `company-${a.companyId}-appMessage`);
    const adminMessages = collect(sAdmin, `company-${a.companyId}-appMessage`);
    const bAll: unknown[] = [];
    // Everything but the handshake's `ready` (no company's event) would be a leak.
    sB.onAny((name: string, payload: unknown) => name !== 'ready' && bAll.push([name, payload]));

    const visible = await ticketIn(a, '5511955550001', sales);
    const hidden = await ticketIn(a, '5511955550002', support);
    await deliver(server, a, {
      name: 'message',
      payload: customerMessage(a.whatsappId, '5511955550001', { body: 'vendas' }),
    });
    await deliver(server, a, {
      name: 'message',
      payload: customerMessage(a.whatsappId, '5511955550002', { body: 'suporte' }),
    });
    // The admin sees both: once both reached it, the agent's (sent at once) have too.
    await until(() =>
      ['vendas', 'suporte'].every((body) => adminMessages.some((m) => m.message.body === body)),
    );

    expect(agentMessages.map((m) => m.message.body)).toEqual(['vendas']);
    expect(agentMessages[0]).toMatchObject({ action: 'create', ticket: { id: visible } });
    expect(typeof agentMessages[0].seq).toBe('number');
    expect(agentTickets.some((e) => e.ticket?.id === hidden)).toBe(false);
    expect(adminMessages.map((m) => m.message.body)).toEqual(
      expect.arrayContaining(['vendas', 'suporte']),
    );
    expect(bAll).toEqual([]);

    expect(await emitAck(sAgent, 'joinChatBox', { ticketId: hidden })).toEqual({
      ok: false,
      error: 'ERR_TICKET_ACCESS_DENIED',
    });
    expect(await emitAck(sB, 'joinChatBox', visible)).toEqual({
      ok: false,
      error: 'ERR_NO_TICKET_FOUND',
    });
    expect(await emitAck(sAgent, 'joinChatBox', visible)).toEqual({ ok: true });

    // Moving the ticket to a queue the agent lacks removes it from the agent's lists.
    await server.request('PUT', `/tickets/${visible}`, {
      token: a.admin.token,
      body: { queueId: support, userId: null },
    });
    await until(() => agentTickets.some((e) => e.action === 'delete' && e.ticketId === visible));
    expect(agentTickets.at(-1)).toMatchObject({ action: 'delete', ticketId: visible });

    // After leaving, no more ticket events reach the agent.
    await emitAck(sAgent, 'leaveTickets');
    await emitAck(sAgent, 'leaveNotification');
    await emitAck(sAgent, 'leaveChatBox');
    const before = agentMessages.length;
    const adminBefore = adminMessages.length;
    await ticketIn(a, '5511955550003', sales);
    // A barrier: the admin, still joined, got the new message; the agent, who left, did not.
    await until(() => adminMessages.length > adminBefore);
    expect(agentMessages.length).toBe(before);
    for (const s of [sAgent, sAdmin, sB]) s.close();
  });

  it('GET /sync/changes returns the gap-free feed in order, filtered by visibility, and resetRequired past the log', async () => {
    const all = await server.request('GET', '/sync/changes?after=0&limit=1000', {
      token: a.admin.token,
    });
    const seqs = all.body.changes.map((c: { seq: number }) => c.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(all.body.last).toBe(seqs.at(-1));
    const paged = await server.request('GET', '/sync/changes?after=2&limit=3', {
      token: a.admin.token,
    });
    expect(paged.body.changes.map((c: { seq: number }) => c.seq)).toEqual([3, 4, 5]);
    expect(paged.body.hasMore).toBe(true);

    const agent = await addAgent(server, a.admin, { queueIds: [sales] });
    const mine = await server.request('GET', '/sync/changes?after=0&limit=1000', {
      token: agent.token,
    });
    const bodies = mine.body.changes
      .filter((c: { entity: string }) => c.entity === 'message')
      .map((c: { payload: any }) => c.payload.ticket.queueId);
    expect(bodies.every((q: number | null) => q === sales)).toBe(true);
    expect(mine.body.last).toBe(all.body.last);

    const bFeed = await server.request('GET', '/sync/changes?after=0', { token: b.admin.token });
    expect(JSON.stringify(bFeed.body)).not.toContain('5511955550001');

    await server.app.ds.query(
      `UPDATE change_counters SET "prunedThrough" = 5 WHERE "companyId" = $1`,
      [a.companyId],
    );
    expect(
      (await server.request('GET', '/sync/changes?after=3', { token: a.admin.token })).body,
    ).toEqual({ resetRequired: true, head: all.body.last });
    expect(
      (await server.request('GET', '/sync/changes?after=5&limit=1', { token: a.admin.token })).body
        .changes[0].seq,
    ).toBe(6);
    expect(
      (await server.request('GET', '/sync/changes?after=-1', { token: a.admin.token })).body.error,
    ).toBe('ERR_VALIDATION');
  });

  it('notes: add, list, delete with core §5 rule; B cannot see or delete A notes', async () => {
    const ticketId = await ticketIn(a, '5511955550010', sales);
    const [{ contactId }] = await server.app.ds.query(
      'SELECT "contactId" FROM tickets WHERE id = $1',
      [ticketId],
    );
    const short = await server.request('POST', '/ticket-notes', {
      token: a.admin.token,
      body: { note: 'x', ticketId, contactId },
    });
    expect(short.body.details[0].message).toBe('Too Short!');
    const note = await server.request('POST', '/ticket-notes', {
      token: a.admin.token,
      body: { note: 'cliente pediu retorno', ticketId, contactId },
    });
    expect(note.status).toBe(201);
    expect(note.body.user.id).toBe(a.admin.id);
    const list = await server.request(
      'GET',
      `/ticket-notes/list?ticketId=${ticketId}&contactId=${contactId}`,
      { token: a.admin.token },
    );
    expect(list.body.map((n: { note: string }) => n.note)).toEqual(['cliente pediu retorno']);
    expect(
      (
        await server.request(
          'GET',
          `/ticket-notes/list?ticketId=${ticketId}&contactId=${contactId}`,
          { token: b.admin.token },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await server.request('POST', '/ticket-notes', {
          token: b.admin.token,
          body: { note: 'intruso', ticketId, contactId },
        })
      ).status,
    ).toBe(404);
    expect(
      (await server.request('DELETE', `/ticket-notes/${note.body.id}`, { token: b.admin.token }))
        .status,
    ).toBe(404);
    const del = await server.request('DELETE', `/ticket-notes/${note.body.id}`, {
      token: a.admin.token,
    });
    expect(del.body.message).toBe('Observação excluída com sucesso!');
  });

  it('tags: B cannot read, change, delete or attach A tags; names are unique per company', async () => {
    const tag = await server.request('POST', '/tags', {
      token: a.admin.token,
      body: { name: 'Urgente', color: '#f00' },
    });
    expect(
      (await server.request('POST', '/tags', { token: a.admin.token, body: { name: 'Urgente' } }))
        .body.error,
    ).toBe('ERR_TAG_NAME_EXISTS');
    const tb = b.admin.token;
    expect((await server.request('GET', `/tags/${tag.body.id}`, { token: tb })).status).toBe(404);
    expect(
      (await server.request('PUT', `/tags/${tag.body.id}`, { token: tb, body: { name: 'Outra' } }))
        .status,
    ).toBe(404);
    expect((await server.request('DELETE', `/tags/${tag.body.id}`, { token: tb })).status).toBe(
      404,
    );
    expect((await server.request('GET', '/tags/list', { token: tb })).body).toEqual([]);
    const bTicket = await ticketIn(b, '5511955550020', null);
    const attach = await server.request('POST', '/tags/sync', {
      token: tb,
      body: { ticketId: bTicket, tags: [tag.body.id] },
    });
    expect(attach.body.error).toBe('ERR_NO_TAG_FOUND');
  });

  it('dashboard: Parametrize o filtro without a filter; counters, attendants and charts', async () => {
    const none = await server.request('GET', '/dashboard', { token: a.admin.token });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      error: 'ERR_DASHBOARD_FILTER',
      message: 'Parametrize o filtro',
    });
    const id = await ticketIn(a, '5511955550030', sales);
    await server.request('PUT', `/tickets/${id}`, {
      token: a.admin.token,
      body: { status: 'open' },
    });
    await server.request('PUT', `/tickets/${id}`, {
      token: a.admin.token,
      body: { status: 'closed' },
    });
    const dash = await server.request('GET', '/dashboard?days=7', { token: a.admin.token });
    expect(dash.body.counters.supportFinished).toBeGreaterThanOrEqual(1);
    expect(dash.body.counters.supportPending).toBeGreaterThanOrEqual(1);
    expect(dash.body.attendants.find((u: { id: number }) => u.id === a.admin.id)).toMatchObject({
      tickets: expect.any(Number),
      online: expect.any(Boolean),
    });
    const today = new Date().toISOString().slice(0, 10);
    const users = await server.request(
      'GET',
      `/dashboard/ticketsUsers?initialDate=${today}&finalDate=${today}`,
      { token: a.admin.token },
    );
    expect(users.body.data[0]).toMatchObject({
      nome: expect.any(String),
      quantidade: expect.any(Number),
    });
    const day = await server.request(
      'GET',
      `/dashboard/ticketsDay?initialDate=${today}&finalDate=${today}`,
      { token: a.admin.token },
    );
    expect(day.body.data[0]).toHaveProperty('horario');
    const agent = await addAgent(server, a.admin);
    expect((await server.request('GET', '/dashboard?days=7', { token: agent.token })).status).toBe(
      403,
    );
    const bDash = await server.request('GET', '/dashboard?days=7', { token: b.admin.token });
    expect(bDash.body.counters.supportFinished).toBe(0);
  });
});
