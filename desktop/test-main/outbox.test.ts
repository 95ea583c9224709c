import { describe, expect, it } from 'vitest';
import { holdReason, retryDelay } from '../src/main/core/outbox.js';
import { FakeClient, KITS } from './support/client.js';
import { FakeServer } from './support/fake-server.js';

const myTicket = (server: FakeServer, fields = {}) => {
  const contact = server.upsertContact('Eva');
  return server.createTicket(contact.id, { userId: 1, ...fields });
};
const sentBy = (server: FakeServer, clientId: string) =>
  [...server.messages.values()].filter((m) => m.clientId === clientId);

describe('retry policy', () => {
  it('doubles from one second up to a minute, with jitter between 50% and 100%', () => {
    expect(retryDelay(1, () => 1)).toBe(1000);
    expect(retryDelay(3, () => 1)).toBe(4000);
    expect(retryDelay(30, () => 1)).toBe(60_000);
    expect(retryDelay(2, () => 0)).toBe(1000);
  });

  it('holds replies to closed, reassigned or vanished tickets', () => {
    expect(holdReason({ id: 1, status: 'open', userId: 1 }, 1)).toBeNull();
    expect(holdReason({ id: 1, status: 'pending', userId: null }, 1)).toBeNull();
    expect(holdReason({ id: 1, status: 'closed', userId: 1 }, 1)).toBe('ticket-closed');
    expect(holdReason({ id: 1, status: 'open', userId: 2 }, 1)).toBe('ticket-reassigned');
    expect(holdReason(null, 1)).toBe('ticket-missing');
  });
});

describe.each(KITS)('outbox over the %o store', (makeKit) => {
  it('a reply composed offline shows at once and is sent once on reconnect', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit());
    await client.start();
    await client.connect();
    const ticket = myTicket(server);
    await client.settle();
    client.disconnect();
    const entry = await client.outbox.compose({ ticketId: ticket.id, body: 'já volto' });
    expect(client.kit.state().pending).toEqual([entry.clientId]);
    expect(await client.kit.store.listOutgoing()).toHaveLength(1);
    expect(server.sendCalls).toBe(0);
    await client.connect();
    expect(server.sendCalls).toBe(1);
    expect(sentBy(server, entry.clientId)).toHaveLength(1);
    const state = client.kit.state();
    expect(state.pending).toEqual([]);
    expect(state.messages.filter((m) => m.clientId === entry.clientId)).toHaveLength(1);
    expect(await client.kit.store.listOutgoing()).toEqual([]);
  });

  it('retries with backoff while the network is down, then sends', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit());
    await client.start();
    await client.connect();
    const ticket = myTicket(server);
    await client.settle();
    client.online = false; // the socket still looks up, the request fails
    await client.outbox.compose({ ticketId: ticket.id, body: 'tentando' });
    await client.outbox.flush();
    const [entry] = await client.kit.store.listOutgoing();
    expect(entry).toMatchObject({ attempts: 1, reason: 'network', state: 'pending' });
    expect(entry!.nextAttemptAt - client.clock.now()).toBe(750);
    client.online = true;
    client.clock.advance(749);
    await client.outbox.flush();
    expect(server.sendCalls).toBe(0);
    client.clock.advance(1);
    await client.settle();
    expect(server.sendCalls).toBe(1);
    expect(await client.kit.store.listOutgoing()).toEqual([]);
  });

  it('a resend after a lost answer does not double the message', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit());
    await client.start();
    await client.connect();
    const ticket = myTicket(server);
    await client.settle();
    client.loseNextAnswer = true;
    const entry = await client.outbox.compose({ ticketId: ticket.id, body: 'uma vez' });
    await client.settle();
    // The server stored it; the client did not hear back and keeps the entry.
    expect(sentBy(server, entry.clientId)).toHaveLength(1);
    expect(await client.kit.store.listOutgoing()).toHaveLength(1);
    client.clock.advance(60_000);
    await client.settle();
    expect(server.sendCalls).toBe(2);
    expect(sentBy(server, entry.clientId)).toHaveLength(1);
    const mine = client.kit.state().messages.filter((m) => m.clientId === entry.clientId);
    expect(mine).toHaveLength(1);
    expect(client.kit.state().pending).toEqual([]);
    expect(await client.kit.store.listOutgoing()).toEqual([]);
  });

  it('holds a reply to a ticket closed meanwhile and asks the agent', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit());
    await client.start();
    await client.connect();
    const ticket = myTicket(server);
    await client.settle();
    client.disconnect();
    const first = await client.outbox.compose({ ticketId: ticket.id, body: 'primeira' });
    const second = await client.outbox.compose({ ticketId: ticket.id, body: 'segunda' });
    server.updateTicket(ticket.id, { status: 'closed' });
    await client.connect();
    expect(server.sendCalls).toBe(0);
    expect(client.held.map((e) => [e.clientId, e.reason])).toEqual([
      [first.clientId, 'ticket-closed'],
    ]);
    const states = (await client.kit.store.listOutgoing()).map((e) => e.state);
    // The later reply waits behind the held one, so the order of the conversation is kept.
    expect(states).toEqual(['held', 'pending']);
    // Discarding the first lets the second go on to the same check: it is held too.
    await client.outbox.discard(first.clientId);
    expect((await client.kit.store.listOutgoing()).map((e) => [e.clientId, e.state])).toEqual([
      [second.clientId, 'held'],
    ]);
    expect(client.held.map((e) => e.clientId)).toEqual([first.clientId, second.clientId]);
    await client.outbox.discard(second.clientId);
    expect(server.sendCalls).toBe(0);
    expect(client.kit.state().pending).toEqual([]);
    expect(await client.kit.store.listOutgoing()).toEqual([]);
  });

  it('holds when the server refuses because the ticket changed, then sends when confirmed', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit());
    await client.start();
    await client.connect();
    const ticket = myTicket(server);
    await client.settle();
    client.disconnect();
    const entry = await client.outbox.compose({ ticketId: ticket.id, body: 'oi' });
    // Reassigned to someone else: the local check holds it before any request.
    server.updateTicket(ticket.id, { userId: 2 });
    await client.connect();
    expect(client.held.map((e) => e.reason)).toEqual(['ticket-reassigned']);
    expect(server.sendCalls).toBe(0);
    await client.outbox.confirm(entry.clientId);
    await client.settle();
    expect(sentBy(server, entry.clientId)).toHaveLength(1);
    expect(await client.kit.store.listOutgoing()).toEqual([]);
  });

  it('the server refusal of a closed ticket holds the reply too', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit());
    await client.start();
    await client.connect();
    const ticket = myTicket(server);
    await client.settle();
    client.disconnect();
    // Closed on the server while the client still believes it open (no event reached it).
    server.updateTicket(ticket.id, { status: 'closed' });
    client.online = true;
    const entry = await client.outbox.compose({ ticketId: ticket.id, body: 'tarde' });
    client.outbox.setOnline(true);
    await client.outbox.flush();
    expect(server.sendCalls).toBe(1);
    expect(client.held.map((e) => [e.clientId, e.reason])).toEqual([
      [entry.clientId, 'ERR_TICKET_CLOSED'],
    ]);
  });
});
