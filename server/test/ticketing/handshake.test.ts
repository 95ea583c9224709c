// The socket handshake as Whaticket's clients drive it (issue 13 item 2): `ready` after connect,
// then joinTickets(status), joinNotification and joinChatBox(ticketId), each acknowledged; agents
// get their queues' live events; a ticket leaving a list is deleted from it before its update.
import '../../src/modules/messages/inbound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { ack, listenReady, type Listening } from '../socket-client.js';
import {
  addAgent,
  addQueue,
  customerMessage,
  deliver,
  tenant,
  until,
  type Tenant,
} from './fixtures.js';

let server: TestServer;
let a: Tenant;
let sales: number;
let support: number;
const open: Listening[] = [];

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant(server);
  sales = await addQueue(server, a.companyId, 'Vendas');
  support = await addQueue(server, a.companyId, 'Suporte');
});
afterAll(async () => {
  for (const l of open) l.close();
  await server?.close();
});

async function socketOf(token: string): Promise<Listening> {
  const listening = await listenReady(server.url, token);
  open.push(listening);
  return listening;
}

const ticketEvents = (l: Listening) =>
  l.received
    .filter((r) => r.event === `company-${a.companyId}-ticket`)
    .map((r) => r.payload as any);
/** The ticket events about one ticket, as `delete` or `update:<status>`. */
const story = (l: Listening, ticketId: number) =>
  ticketEvents(l)
    .filter((p) => (p.ticketId ?? p.ticket?.id) === ticketId)
    .map((p) => (p.action === 'delete' ? 'delete' : `${p.action}:${p.ticket?.status}`));

async function pendingTicket(phone: string, queueId: number): Promise<number> {
  await deliver(server, a, { name: 'message', payload: customerMessage(a.whatsappId, phone) });
  const [row] = await server.app.ds.query(
    `SELECT t.id FROM tickets t JOIN contacts c ON c.id = t."contactId"
      WHERE c.number = $1 AND t."companyId" = $2`,
    [phone, a.companyId],
  );
  await server.app.ds.query('UPDATE tickets SET "queueId" = $2 WHERE id = $1', [row.id, queueId]);
  return row.id as number;
}

describe('the Whaticket socket handshake', () => {
  it('says ready, acknowledges the joins (both leave spellings too) and refuses a foreign chat', async () => {
    const agent = await addAgent(server, a.admin, { queueIds: [sales] });
    const s = await socketOf(agent.token);
    expect(s.received[0]?.event).toBe('ready');
    const mine = await pendingTicket('5511988880001', sales);
    const theirs = await pendingTicket('5511988880002', support);
    expect(await ack(s.socket, 'joinTickets', 'pending')).toEqual({ ok: true });
    expect(await ack(s.socket, 'joinTickets', { status: 'open' })).toEqual({ ok: true });
    expect(await ack(s.socket, 'joinNotification')).toEqual({ ok: true });
    expect(await ack(s.socket, 'joinChatBox', String(mine))).toEqual({ ok: true });
    expect(await ack(s.socket, 'joinChatBox', theirs)).toEqual({
      ok: false,
      error: 'ERR_TICKET_ACCESS_DENIED',
    });
    expect(await ack(s.socket, 'joinChatBox', 'abc')).toEqual({
      ok: false,
      error: 'ERR_VALIDATION',
    });
    expect(await ack(s.socket, 'joinChatBoxLeave', String(mine))).toEqual({ ok: true });
    expect(await ack(s.socket, 'joinTicketsLeave', 'open')).toEqual({ ok: true });
    expect(await ack(s.socket, 'leaveNotification')).toEqual({ ok: true });
  });

  it("a non-admin agent receives its queues' live events, and only those", async () => {
    const agent = await addAgent(server, a.admin, { queueIds: [sales] });
    const s = await socketOf(agent.token);
    const admin = await socketOf(a.admin.token);
    expect(await ack(s.socket, 'joinTickets', 'pending')).toEqual({ ok: true });
    const mine = await pendingTicket('5511988880011', sales);
    const theirs = await pendingTicket('5511988880012', support);
    for (const phone of ['5511988880012', '5511988880011'])
      await deliver(server, a, {
        name: 'message',
        payload: customerMessage(a.whatsappId, phone, { body: `de ${phone}` }),
      });
    const messages = (l: Listening) =>
      l.received
        .filter((r) => r.event === `company-${a.companyId}-appMessage`)
        .map((r) => (r.payload as any).message.body as string)
        .filter((body) => body.startsWith('de '));
    // The agent's own message comes after the other queue's: had that one reached it, it is here.
    await until(() => messages(s).includes('de 5511988880011') || undefined);
    await until(() => messages(admin).includes('de 5511988880011') || undefined);
    expect(messages(s)).toEqual(['de 5511988880011']);
    expect(messages(admin)).toEqual(['de 5511988880012', 'de 5511988880011']);
    expect(story(s, mine)).toEqual(['update:pending']);
    expect(story(s, theirs)).toEqual([]);
  });

  it('a status change deletes the ticket from the lists it left, then updates it', async () => {
    const agent = await addAgent(server, a.admin, { queueIds: [sales] });
    const pendingList = await socketOf(agent.token);
    const openList = await socketOf(a.admin.token);
    expect(await ack(pendingList.socket, 'joinTickets', 'pending')).toEqual({ ok: true });
    expect(await ack(openList.socket, 'joinTickets', 'open')).toEqual({ ok: true });
    const id = await pendingTicket('5511988880021', sales);
    await until(() => story(openList, id).length >= 1 || undefined);
    const seen = story(openList, id).length;

    const accepted = await server.request('PUT', `/tickets/${id}`, {
      token: agent.token,
      body: { status: 'open' },
    });
    expect(accepted.status).toBe(200);
    await until(() => story(pendingList, id).length >= 2 || undefined);
    await until(() => story(openList, id).length > seen || undefined);
    // The pending list loses it (and gets the update after); the open list only gains it.
    expect(story(pendingList, id)).toEqual(['delete', 'update:open']);
    expect(story(openList, id).slice(seen)).toEqual(['update:open']);
    const removal = ticketEvents(pendingList).find((p) => p.action === 'delete');
    expect(removal).toEqual({ action: 'delete', ticketId: id });
  });

  it('a new owner deletes it from the open lists before the update; a queue move deletes it only where it is no longer seen', async () => {
    const first = await addAgent(server, a.admin, { queueIds: [sales, support] });
    const second = await addAgent(server, a.admin, { queueIds: [sales] });
    const s1 = await socketOf(first.token);
    const admin = await socketOf(a.admin.token);
    const s2 = await socketOf(second.token);
    for (const s of [s1, admin])
      expect(await ack(s.socket, 'joinTickets', 'open')).toEqual({ ok: true });
    expect(await ack(s2.socket, 'joinTickets', 'pending')).toEqual({ ok: true });
    const id = await pendingTicket('5511988880031', sales);
    await server.request('PUT', `/tickets/${id}`, { token: first.token, body: { status: 'open' } });
    await until(() => story(s1, id).length >= 1 || undefined);

    const handed = await server.request('PUT', `/tickets/${id}`, {
      token: first.token,
      body: { userId: second.id, status: 'open' },
    });
    expect(handed.status).toBe(200);
    await until(() => story(s1, id).length >= 3 || undefined);
    expect(story(s1, id)).toEqual(['update:open', 'delete', 'update:open']);

    // Back to pending in sales, then moved to support: the second agent (sales only) loses it,
    // the first (both queues) and the admin still see it and get no delete for the move.
    await server.request('PUT', `/tickets/${id}`, {
      token: a.admin.token,
      body: { status: 'pending' },
    });
    const before = {
      s1: story(s1, id).length,
      admin: story(admin, id).length,
      s2: story(s2, id).length,
    };
    const moved = await server.request('PUT', `/tickets/${id}`, {
      token: a.admin.token,
      body: { queueId: support, userId: null },
    });
    expect(moved.status).toBe(200);
    await until(() => story(s2, id).length > before.s2 || undefined);
    await until(() => story(s1, id).length > before.s1 || undefined);
    await until(() => story(admin, id).length > before.admin || undefined);
    expect(story(s2, id).slice(before.s2)).toEqual(['delete']);
    expect(story(s1, id).slice(before.s1)).toEqual(['update:pending']);
    expect(story(admin, id).slice(before.admin)).toEqual(['update:pending']);
  });
});
