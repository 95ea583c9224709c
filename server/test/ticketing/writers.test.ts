// The two writers of issue 12 item 5 through their own entry points: every outgoing sender's
// lane, clientId idempotency and tenant scope (messages/outgoing.ts), and the platform's ticket
// writes under the shared transition rule (tickets/ticket-writes.ts via routing/bot-send.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/http/errors.js';
import { sendOutgoing } from '../../src/modules/messages/outgoing.js';
import {
  closeTicketBySystem,
  setTicketQueue,
  transferTicketBySystem,
} from '../../src/modules/routing/bot-send.js';
import { connectionQueue } from '../../src/whatsapp/connection-queue.js';
import { startTestServer, type TestServer } from '../harness.js';
import { addQueue, customerMessage, deliver, tenant, type Tenant } from './fixtures.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let phones = 0;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant(server);
  b = await tenant(server);
});
afterAll(() => server?.close());

/** A new customer writes: a pending ticket without a queue or agent. */
async function pendingTicket(t: Tenant): Promise<number> {
  const phone = `55119777${String(++phones).padStart(5, '0')}`;
  await deliver(server, t, { name: 'message', payload: customerMessage(t.whatsappId, phone) });
  const [row] = (await server.app.ds.query(
    `SELECT t.id FROM tickets t JOIN contacts c ON c.id = t."contactId"
      WHERE c.number = $1 AND t."companyId" = $2`,
    [phone, t.companyId],
  )) as { id: number }[];
  return row!.id;
}

const ticketRow = async (id: number) =>
  (
    (await server.app.ds.query(
      `SELECT status, "userId", "queueId", chatbot, "lastMessage", "closedAt" FROM tickets
        WHERE id = $1`,
      [id],
    )) as {
      status: string;
      userId: number | null;
      queueId: number | null;
      chatbot: boolean;
      lastMessage: string;
      closedAt: Date | null;
    }[]
  )[0]!;

const laneOf = async (whatsappId: number, wid: string) => {
  for (const lane of ['agent', 'bulk'] as const)
    if (await connectionQueue(server.app, whatsappId, lane).getJob(`msg-${wid}`)) return lane;
  return undefined;
};

describe('the outgoing writer', () => {
  it.each([
    ['agent', 'agent'],
    ['bot', 'agent'],
    ['integration', 'agent'],
    ['campaign', 'bulk'],
    ['schedule', 'agent'],
    ['api', 'agent'],
  ] as const)('%s messages are queued on the %s lane', async (origin, lane) => {
    const ticketId = await pendingTicket(a);
    const sent = await sendOutgoing(server.app, a.companyId, {
      ticketId,
      body: `de ${origin}`,
      userId: origin === 'agent' ? a.admin.id : null,
      origin,
    });
    expect(sent).toMatchObject({ duplicate: false, queued: true });
    expect(sent.message).toMatchObject({ fromMe: true, body: `de ${origin}`, ticketId });
    expect(await laneOf(a.whatsappId, sent.message.wid)).toBe(lane);
    expect((await ticketRow(ticketId)).lastMessage).toBe(`de ${origin}`);
  });

  it('stores and queues a clientId once, however many times it is sent', async () => {
    const ticketId = await pendingTicket(a);
    const send = () =>
      sendOutgoing(server.app, a.companyId, {
        ticketId,
        body: 'uma vez',
        clientId: 'api:pedido-42',
        userId: null,
        origin: 'api',
      });
    const all = await Promise.all([send(), send(), send()]);
    expect(all.filter((s) => !s.duplicate)).toHaveLength(1);
    expect(new Set(all.map((s) => s.message.id)).size).toBe(1);
    const again = await send();
    expect(again).toMatchObject({ duplicate: true, queued: false });
    const rows = (await server.app.ds.query(
      `SELECT count(*)::int AS n FROM messages WHERE "companyId" = $1 AND "clientId" = 'api:pedido-42'`,
      [a.companyId],
    )) as { n: number }[];
    expect(rows[0]!.n).toBe(1);
  });

  it('another company cannot write into a ticket, and nothing is stored', async () => {
    const ticketId = await pendingTicket(a);
    const error = await sendOutgoing(server.app, b.companyId, {
      ticketId,
      body: 'intruso',
      userId: null,
      origin: 'api',
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('ERR_NO_TICKET_FOUND');
    const rows = (await server.app.ds.query(
      `SELECT 1 FROM messages WHERE "ticketId" = $1 AND "fromMe"`,
      [ticketId],
    )) as unknown[];
    expect(rows).toEqual([]);
  });

  it('a file without text is previewed by its name', async () => {
    const ticketId = await pendingTicket(a);
    const sent = await sendOutgoing(server.app, a.companyId, {
      ticketId,
      body: '',
      media: {
        path: `${a.companyId}/x.pdf`,
        url: '/media/x.pdf',
        mimetype: 'application/pdf',
        fileName: 'boleto.pdf',
      },
      userId: null,
      origin: 'bot',
    });
    expect(sent.message).toMatchObject({ mediaType: 'application', fileName: 'boleto.pdf' });
    expect((await ticketRow(ticketId)).lastMessage).toBe('boleto.pdf');
  });
});

describe('the platform writes tickets through the shared rule', () => {
  let queueId: number;
  beforeAll(async () => {
    queueId = await addQueue(server, a.companyId, 'Financeiro');
  });

  const accept = async (ticketId: number) => {
    const res = await server.request('PUT', `/tickets/${ticketId}`, {
      token: a.admin.token,
      body: { status: 'open' },
    });
    expect(res.status).toBe(200);
  };

  it('the bot routes a waiting ticket nobody holds, and never one an agent took', async () => {
    const waiting = await pendingTicket(a);
    await setTicketQueue(server.app, a.companyId, waiting, queueId, true);
    expect(await ticketRow(waiting)).toMatchObject({ status: 'pending', queueId, chatbot: true });

    const taken = await pendingTicket(a);
    await accept(taken);
    await setTicketQueue(server.app, a.companyId, taken, queueId, true);
    expect(await ticketRow(taken)).toMatchObject({
      status: 'open',
      userId: a.admin.id,
      queueId: null,
      chatbot: false,
    });
  });

  it('a system transfer makes the ticket wait in the queue without the bot', async () => {
    const ticketId = await pendingTicket(a);
    await setTicketQueue(server.app, a.companyId, ticketId, null, true);
    expect(await transferTicketBySystem(server.app, a.companyId, ticketId, queueId)).toBe(true);
    expect(await ticketRow(ticketId)).toMatchObject({
      status: 'pending',
      userId: null,
      queueId,
      chatbot: false,
    });
  });

  it('a system close keeps the agent, honours `from`, and a closed ticket stays as it is', async () => {
    const ticketId = await pendingTicket(a);
    await accept(ticketId);
    expect(await closeTicketBySystem(server.app, a.companyId, ticketId, ['pending'])).toBe(false);
    expect((await ticketRow(ticketId)).status).toBe('open');
    expect(await closeTicketBySystem(server.app, a.companyId, ticketId, ['open'])).toBe(true);
    const closed = await ticketRow(ticketId);
    expect(closed).toMatchObject({ status: 'closed', userId: a.admin.id, chatbot: false });
    expect(closed.closedAt).not.toBeNull();
    expect(await closeTicketBySystem(server.app, a.companyId, ticketId)).toBe(false);
    expect(await transferTicketBySystem(server.app, a.companyId, ticketId, queueId)).toBe(false);
    expect(await ticketRow(ticketId)).toMatchObject({ status: 'closed', queueId: null });
  });

  it("another company's ids change nothing", async () => {
    const ticketId = await pendingTicket(a);
    expect(await closeTicketBySystem(server.app, b.companyId, ticketId)).toBe(false);
    await setTicketQueue(server.app, b.companyId, ticketId, queueId, true);
    expect(await ticketRow(ticketId)).toMatchObject({ status: 'pending', queueId: null });
  });
});
