import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeClient, KITS } from './support/client.js';
import { FakeServer } from './support/fake-server.js';

type Action =
  | { t: 'inbound'; ticket: number; text: string }
  | { t: 'newTicket' }
  | { t: 'ticketStatus'; ticket: number; status: 'open' | 'pending' | 'closed' }
  | { t: 'reassign'; ticket: number; userId: number }
  | { t: 'deleteTicket'; ticket: number }
  | { t: 'markRead'; ticket: number }
  | { t: 'tag' }
  | { t: 'deleteTag'; tag: number }
  | { t: 'contact'; name: string }
  | { t: 'disconnect' }
  | { t: 'reconnect' }
  | { t: 'compose'; ticket: number; text: string }
  | { t: 'loseAnswer' }
  | { t: 'dropEvents'; n: number }
  | { t: 'hold' }
  | { t: 'release' }
  | { t: 'prune' }
  | { t: 'wait'; ms: number };

const idx = fc.nat({ max: 20 });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({ t: fc.constant('inbound' as const), ticket: idx, text: fc.string() }),
    weight: 4,
  },
  { arbitrary: fc.record({ t: fc.constant('newTicket' as const) }), weight: 2 },
  fc.record({
    t: fc.constant('ticketStatus' as const),
    ticket: idx,
    status: fc.constantFrom('open' as const, 'pending' as const, 'closed' as const),
  }),
  fc.record({ t: fc.constant('reassign' as const), ticket: idx, userId: fc.constantFrom(1, 2) }),
  fc.record({ t: fc.constant('deleteTicket' as const), ticket: idx }),
  fc.record({ t: fc.constant('markRead' as const), ticket: idx }),
  fc.record({ t: fc.constant('tag' as const) }),
  fc.record({ t: fc.constant('deleteTag' as const), tag: idx }),
  fc.record({ t: fc.constant('contact' as const), name: fc.string() }),
  { arbitrary: fc.record({ t: fc.constant('disconnect' as const) }), weight: 2 },
  { arbitrary: fc.record({ t: fc.constant('reconnect' as const) }), weight: 2 },
  {
    arbitrary: fc.record({ t: fc.constant('compose' as const), ticket: idx, text: fc.string() }),
    weight: 4,
  },
  fc.record({ t: fc.constant('loseAnswer' as const) }),
  fc.record({ t: fc.constant('dropEvents' as const), n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant('hold' as const) }),
  fc.record({ t: fc.constant('release' as const) }),
  fc.record({ t: fc.constant('prune' as const) }),
  fc.record({ t: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 70_000 }) }),
);

const pick = <T>(items: T[], i: number): T | undefined =>
  items.length ? items[i % items.length] : undefined;

async function run(makeKit: (typeof KITS)[number], actions: Action[]): Promise<void> {
  const server = new FakeServer();
  const client = new FakeClient(server, makeKit(), { pageSize: 4 });
  await client.start();
  await client.connect();
  const composed: string[] = [];
  const contact = server.upsertContact('Cliente');
  for (const a of actions) {
    const tickets = [...server.tickets.keys()];
    switch (a.t) {
      case 'inbound': {
        const t = pick(tickets, a.ticket);
        if (t !== undefined) server.inbound(t, a.text);
        break;
      }
      case 'newTicket':
        server.createTicket(contact.id, { userId: 1 });
        break;
      case 'ticketStatus': {
        const t = pick(tickets, a.ticket);
        if (t !== undefined) server.updateTicket(t, { status: a.status });
        break;
      }
      case 'reassign': {
        const t = pick(tickets, a.ticket);
        if (t !== undefined) server.updateTicket(t, { userId: a.userId });
        break;
      }
      case 'deleteTicket': {
        const t = pick(tickets, a.ticket);
        if (t !== undefined) server.deleteTicket(t);
        break;
      }
      case 'markRead': {
        const t = pick(tickets, a.ticket);
        if (t !== undefined) server.markRead(t);
        break;
      }
      case 'tag':
        server.upsertTag('etiqueta');
        break;
      case 'deleteTag': {
        const t = pick([...server.tags.keys()], a.tag);
        if (t !== undefined) server.deleteTag(t);
        break;
      }
      case 'contact':
        server.upsertContact(a.name);
        break;
      case 'disconnect':
        if (client.online) client.disconnect();
        break;
      case 'reconnect':
        if (!client.online) await client.connect();
        break;
      case 'compose': {
        const local = (await client.kit.store.listOutgoing()).length;
        const t = pick(
          client.kit.state().tickets.map((x) => x.id),
          a.ticket + local,
        );
        if (t !== undefined)
          composed.push((await client.outbox.compose({ ticketId: t, body: a.text })).clientId);
        break;
      }
      case 'loseAnswer':
        client.loseNextAnswer = true;
        break;
      case 'dropEvents':
        client.dropEvents = a.n;
        break;
      case 'hold':
        client.holding = client.online;
        break;
      case 'release':
        client.release();
        break;
      case 'prune':
        server.prune();
        break;
      case 'wait':
        client.clock.advance(a.ms);
        break;
    }
    await client.settle();
  }
  // The network comes back for good; the agent answers every held reply.
  client.dropEvents = 0;
  client.loseNextAnswer = false;
  client.release();
  if (!client.online) await client.connect();
  client.clock.advance(120_000);
  await client.settle();
  for (let left = await client.kit.store.listOutgoing(); left.length;) {
    // Only a reply queued behind a held one of the same ticket may still wait.
    const held = new Set(left.filter((e) => e.state !== 'pending').map((e) => e.ticketId));
    for (const entry of left) {
      if (entry.state === 'pending') expect(held.has(entry.ticketId)).toBe(true);
      else await client.outbox.discard(entry.clientId);
    }
    await client.settle();
    left = await client.kit.store.listOutgoing();
  }
  // One more change reaches the socket: a number it skips reveals any event lost at the end.
  server.upsertTag('final');
  client.clock.advance(1000);
  await client.settle();

  const state = client.kit.state();
  const truth = server.snapshot();
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  expect(state.cursor).toBe(truth.cursor);
  expect(state.tickets).toEqual(truth.tickets.sort(byId));
  expect(state.contacts).toEqual(truth.contacts.sort(byId));
  expect(state.tags).toEqual(truth.tags.sort(byId));
  expect(state.messages).toEqual(truth.messages.sort(byId));
  expect(state.pending).toEqual([]);
  // Every reply the server accepted exists once there, and once in the cache.
  for (const clientId of composed) {
    const onServer = truth.messages.filter((m) => m.clientId === clientId).length;
    expect(onServer).toBeLessThanOrEqual(1);
    expect(state.messages.filter((m) => m.clientId === clientId).length).toBe(onServer);
  }
}

describe.each(KITS)('convergence over the %o store', (makeKit) => {
  it('random server changes, disconnects, lost events and sends end in the server state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 40 }), (actions) => run(makeKit, actions)),
      { numRuns: 150 },
    );
  });
});
