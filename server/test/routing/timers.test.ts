import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CALLS_DISABLED_MESSAGE } from '../../src/modules/routing/index.js';
import { setClock } from '../../src/modules/routing/clock.js';
import { onTicketTransferred, transferNotice } from '../../src/modules/routing/notices.js';
import { armTicketTimers, sweepDueTimers } from '../../src/modules/timers/timers.js';
import { startTestServer, type TestServer } from '../harness.js';
import { customerMessage } from '../ticketing/fixtures.js';
import { customer, scene, ticketOf, type Scene } from './scenario.js';

let server: TestServer;
let phones = 0;
const phone = () => `55218${String(Date.now()).slice(-6)}${String(++phones).padStart(2, '0')}`;
const later = (ms: number) => setClock(() => new Date(Date.now() + ms));
const MIN = 60_000;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());
afterEach(() => setClock(undefined));

async function accept(s: Scene, ticketId: number) {
  const res = await server.request('PUT', `/tickets/${ticketId}`, {
    token: s.admin.token,
    body: { status: 'open' },
  });
  expect(res.status).toBe(200);
}

describe('timers', () => {
  it('closes an idle open ticket after expiresTicket minutes with expiresInactiveMessage, once', async () => {
    const s = await scene(server, {
      queues: [{ name: 'Geral', greetingMessage: 'Olá' }],
      connection: { expiresTicket: 5, expiresInactiveMessage: 'Encerrado por inatividade.' },
    });
    const p = phone();
    const c = customer(s, p);
    await c.say('oi');
    await c.replies();
    const ticket = await ticketOf(server, s, p);
    await accept(s, ticket.id);
    later(4 * MIN);
    await sweepDueTimers(server.app);
    expect(await c.silence(500)).toEqual([]);
    later(6 * MIN);
    await sweepDueTimers(server.app);
    expect((await c.replies())[0]!.body).toBe('Encerrado por inatividade.');
    await server.app.ds.query('SELECT 1');
    await s.sim.until(async () => (await ticketOf(server, s, p)).status === 'closed');
    await sweepDueTimers(server.app);
    expect(await c.silence()).toEqual([]);
  });

  it('moves a waiting ticket to transferQueueId after timeToTransfer minutes', async () => {
    const s = await scene(server, {
      queues: [
        { name: 'Triagem', orderQueue: 1 },
        { name: 'Plantão', orderQueue: 2 },
      ],
      connection: { greetingMessage: 'Escolha' },
    });
    await server.request('PUT', `/whatsapp/${s.whatsappId}`, {
      token: s.admin.token,
      body: { timeToTransfer: 10, transferQueueId: s.queues['Plantão'] },
    });
    const p = phone();
    const c = customer(s, p);
    await c.say('oi');
    await c.replies();
    later(11 * MIN);
    await sweepDueTimers(server.app);
    await s.sim.until(async () => (await ticketOf(server, s, p)).queueId === s.queues['Plantão']);
    expect(await ticketOf(server, s, p)).toMatchObject({ status: 'pending', userId: null });
  });

  it('a message that postpones a timer writes nothing; the early firing moves it, one earlier moves it back', async () => {
    const s = await scene(server, {
      queues: [{ name: 'Geral', greetingMessage: 'Olá' }],
      connection: { expiresTicket: 5, expiresInactiveMessage: 'Encerrado.' },
    });
    const p = phone();
    const c = customer(s, p);
    await c.say('oi');
    await c.replies();
    const ticket = await ticketOf(server, s, p);
    await accept(s, ticket.id);
    const row = async () =>
      (
        (await server.app.ds.query(`SELECT "dueAt", "firedAt" FROM durable_jobs WHERE key = $1`, [
          `ticket:${ticket.id}:expire`,
        ])) as { dueAt: Date; firedAt: Date | null }[]
      )[0]!;
    const armed = new Date((await row()).dueAt).getTime();
    const idleDue = async () => {
      const [t] = (await server.app.ds.query(`SELECT "lastMessageAt" FROM tickets WHERE id = $1`, [
        ticket.id,
      ])) as { lastMessageAt: Date }[];
      return new Date(t!.lastMessageAt).getTime() + 5 * MIN;
    };
    // The customer writes again a minute later: the timer is due later, the row stays.
    await server.app.ds.query(
      `UPDATE tickets SET "lastMessageAt" = "lastMessageAt" + interval '1 minute' WHERE id = $1`,
      [ticket.id],
    );
    await armTicketTimers(server.app, ticket.id);
    expect(new Date((await row()).dueAt).getTime()).toBe(armed);
    // At the old time the firing finds the ticket not idle long enough and moves itself.
    setClock(() => new Date(armed + 1_000));
    await sweepDueTimers(server.app);
    expect(new Date((await row()).dueAt).getTime()).toBe(await idleDue());
    expect(await idleDue()).toBeGreaterThan(armed + 1_000);
    expect((await row()).firedAt).toBeNull();
    expect((await ticketOf(server, s, p)).status).toBe('open');
    // Something that makes it due earlier moves the row at once (still in the future).
    setClock(undefined);
    await server.app.ds.query(
      `UPDATE tickets SET "lastMessageAt" = "lastMessageAt" - interval '3 minutes' WHERE id = $1`,
      [ticket.id],
    );
    await armTicketTimers(server.app, ticket.id);
    expect(new Date((await row()).dueAt).getTime()).toBe(await idleDue());
    expect(await idleDue()).toBeLessThan(armed);
    expect(await c.silence(300)).toEqual([]);
  });

  it('auto-closes an open ticket after TICKET_AUTO_CLOSE_HOURS (24 h) without a message', async () => {
    const s = await scene(server, { queues: [{ name: 'Geral', greetingMessage: 'Olá' }] });
    const p = phone();
    const c = customer(s, p);
    await c.say('oi');
    await c.replies();
    const ticket = await ticketOf(server, s, p);
    await accept(s, ticket.id);
    later(23 * 60 * MIN);
    await sweepDueTimers(server.app);
    await new Promise((r) => setTimeout(r, 300));
    expect((await ticketOf(server, s, p)).status).toBe('open');
    later(25 * 60 * MIN);
    await sweepDueTimers(server.app);
    await s.sim.until(async () => (await ticketOf(server, s, p)).status === 'closed');
    expect(await c.silence(300)).toEqual([]);
  });
});

describe('rating', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene(server, {
      queues: [{ name: 'Geral', greetingMessage: 'Olá' }],
      connection: { ratingMessage: 'Avalie, {{firstName}}:', complationMessage: 'Obrigado!' },
      settings: { userRating: 'enabled' },
    });
  });

  async function rated(p: string) {
    const c = customer(s, p, 'Lia Souza');
    await c.say('oi');
    await c.replies();
    const ticket = await ticketOf(server, s, p);
    await accept(s, ticket.id);
    // Finishing asks for the rating first; the ticket stays open until the answer.
    const finish = await server.request('PUT', `/tickets/${ticket.id}`, {
      token: s.admin.token,
      body: { status: 'closed', userId: s.admin.user.id, queueId: ticket.queueId },
    });
    expect(finish.status).toBe(200);
    expect(finish.body.status).toBe('open');
    const [question] = await c.replies();
    expect(question!.body).toBe(
      'Avalie, Lia:\n\n*[ 1 ]* - Insatisfeito\n*[ 2 ]* - Satisfeito\n*[ 3 ]* - Muito satisfeito',
    );
    return { c, ticket, question: question! };
  }

  it.each([1, 2, 3])('records %i, sends the completion message and closes', async (rate) => {
    const p = phone();
    const { c, ticket } = await rated(p);
    await c.say(String(rate));
    expect((await c.replies())[0]!.body).toBe('Obrigado!');
    const [row] = await server.app.ds.query(
      'SELECT rate, "userId" FROM user_ratings WHERE "ticketId" = $1',
      [ticket.id],
    );
    expect(row).toEqual({ rate, userId: s.admin.user.id });
    // The completion message may reach the customer just before the close commits.
    await s.sim.until(async () => (await ticketOf(server, s, p)).status === 'closed');
  });

  it('shows the average rating of the attendant on the dashboard', async () => {
    const res = await server.request('GET', '/dashboard?days=1', { token: s.admin.token });
    expect(res.status).toBe(200);
    const me = res.body.attendants.find((a: { id: number }) => a.id === s.admin.user.id);
    expect(me.rating).toBe(2);
  });

  it('asks again once on an invalid answer, then closes without a rating', async () => {
    const p = phone();
    const { c, ticket, question } = await rated(p);
    await c.say('ótimo');
    expect((await c.replies())[0]!.body).toBe(question.body);
    await c.say('5');
    await s.sim.until(async () => (await ticketOf(server, s, p)).status === 'closed');
    expect(await c.silence()).toEqual([]);
    expect(
      await server.app.ds.query('SELECT 1 FROM user_ratings WHERE "ticketId" = $1', [ticket.id]),
    ).toEqual([]);
  });
});

describe('greeting on accept, transfer notice, calls', () => {
  it('greets on accept when sendGreetingAccepted is enabled', async () => {
    const s = await scene(server, {
      queues: [{ name: 'Geral', greetingMessage: 'Olá' }],
      settings: { sendGreetingAccepted: 'enabled' },
    });
    const p = phone();
    const c = customer(s, p, 'Caio');
    await c.say('oi');
    await c.replies();
    await accept(s, (await ticketOf(server, s, p)).id);
    expect((await c.replies())[0]!.body).toMatch(/^Olá \*Caio\*, meu nome é \*.+\*/);
  });

  it('tells the customer the new department when sendMsgTransfTicket is enabled', async () => {
    const s = await scene(server, {
      queues: [
        { name: 'Vendas', orderQueue: 1 },
        { name: 'Financeiro', orderQueue: 2 },
      ],
      connection: { greetingMessage: 'Escolha' },
    });
    const p = phone();
    const c = customer(s, p);
    await c.say('oi');
    await c.replies();
    const ticket = await ticketOf(server, s, p);
    const moved = { id: ticket.id, isGroup: false, queueId: s.queues.Financeiro! };
    expect(await onTicketTransferred(server.app, s.companyId, moved)).toBe(false);
    await server.request('PUT', '/settings/sendMsgTransfTicket', {
      token: s.admin.token,
      body: { value: 'enabled' },
    });
    // The transfer dialog's call: the server sends the notice.
    const transfer = await server.request('PUT', `/tickets/${ticket.id}`, {
      token: s.admin.token,
      body: { queueId: s.queues.Financeiro },
    });
    expect(transfer.status).toBe(200);
    expect(transfer.body.queueId).toBe(s.queues.Financeiro);
    expect((await c.replies())[0]!.body).toBe(transferNotice('Financeiro'));
  });

  it('answers a call only when the setting call is disabled; groups never get the bot', async () => {
    const s = await scene(server, { queues: [{ name: 'Geral', greetingMessage: 'Olá' }] });
    const p = phone();
    const c = customer(s, p);
    const call = async () => {
      const event = customerMessage(s.whatsappId, p, { type: 'call_log', body: '' });
      for (const handler of server.app.hooks.sessionEvent) {
        await handler(
          server.app,
          { companyId: s.companyId, whatsappId: s.whatsappId },
          {
            name: 'message',
            payload: event,
          },
        );
      }
    };
    await call();
    expect(await c.silence(500)).toEqual([]);
    await server.request('PUT', '/settings/call', {
      token: s.admin.token,
      body: { value: 'disabled' },
    });
    await call();
    expect((await c.replies())[0]!.body).toBe(CALLS_DISABLED_MESSAGE);
    const [log] = await server.app.ds.query(
      `SELECT count(*)::int AS n FROM messages WHERE "companyId" = $1 AND "mediaType" = 'call_log'`,
      [s.companyId],
    );
    expect(log.n).toBe(2);

    // CheckMsgIsGroup enabled (the default): a group message is ignored, no ticket.
    const ignored = await s.sim.inbound({
      whatsappId: s.whatsappId,
      from: p,
      body: 'ninguém me vê',
      group: { id: '1203631@g.us', subject: 'Ignorado' },
    });
    // A later direct message is stored: the group one before it was seen and dropped.
    await c.say('depois do grupo');
    await s.sim.until(async () => {
      const rows = await server.app.ds.query(
        `SELECT 1 FROM messages WHERE "companyId" = $1 AND body = 'depois do grupo'`,
        [s.companyId],
      );
      return rows.length > 0;
    });
    expect(
      await server.app.ds.query(`SELECT 1 FROM messages WHERE "companyId" = $1 AND wid = $2`, [
        s.companyId,
        ignored.id,
      ]),
    ).toEqual([]);

    // A group conversation (CheckMsgIsGroup disabled: stored as a group ticket) gets no menu.
    await server.request('PUT', '/settings/CheckMsgIsGroup', {
      token: s.admin.token,
      body: { value: 'disabled' },
    });
    await s.sim.inbound({
      whatsappId: s.whatsappId,
      from: p,
      body: 'oi grupo',
      group: { id: '1203630@g.us', subject: 'Grupo' },
    });
    await s.sim.until(async () => {
      const rows = await server.app.ds.query(
        `SELECT 1 FROM tickets WHERE "companyId" = $1 AND "isGroup"`,
        [s.companyId],
      );
      return rows.length > 0;
    });
    const outbound = await s.sim.outbound(s.whatsappId);
    await new Promise((r) => setTimeout(r, 500));
    expect((await s.sim.outbound(s.whatsappId)).filter((m) => m.chatId.includes('@g.us'))).toEqual(
      outbound.filter((m) => m.chatId.includes('@g.us')),
    );
    expect(outbound.filter((m) => m.chatId.includes('@g.us'))).toEqual([]);
  });
});
