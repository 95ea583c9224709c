import { describe, expect, it } from 'vitest';
import { readFeedAnswer } from '@atende/shared';
import { changeFromEvent, opsOfEntry } from '../src/main/core/protocol.js';
import { compactOps, SyncEngine } from '../src/main/core/sync-engine.js';
import type { Change, Op } from '../src/main/core/types.js';
import { FakeClient, KITS, memoryKit } from './support/client.js';
import { ManualClock } from './support/clock.js';
import { FakeServer } from './support/fake-server.js';

const serverState = (server: FakeServer) => {
  const s = server.snapshot();
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  return {
    cursor: s.cursor,
    tickets: s.tickets.sort(byId),
    contacts: s.contacts.sort(byId),
    tags: s.tags.sort(byId),
    messages: s.messages.sort(byId),
    pending: [],
  };
};

describe('protocol', () => {
  it('turns the rows the shared reader hands over into cache operations', () => {
    const step = readFeedAnswer(
      {
        changes: [
          {
            seq: 1,
            entity: 'tag',
            entityId: 3,
            action: 'update',
            payload: { tag: { id: 3, name: 'VIP' } },
          },
          { seq: 2, entity: 'note', entityId: 9, action: 'create', payload: {} },
          { seq: 3, entity: 'contact', entityId: 4, action: 'delete', payload: { contactId: 4 } },
          {
            seq: 4,
            entity: 'message',
            entityId: 5,
            action: 'create',
            payload: { message: { id: 5, ticketId: 6 }, ticket: { id: 6, status: 'open' } },
          },
        ],
        hasMore: false,
        last: 4,
      },
      0,
    );
    if (step.kind !== 'page') throw new Error('not a page');
    expect(step.page.entries.map(opsOfEntry)).toEqual([
      [{ entity: 'tag', op: 'upsert', data: { id: 3, name: 'VIP' } }],
      [],
      [{ entity: 'contact', op: 'delete', id: 4 }],
      [
        { entity: 'ticket', op: 'upsert', data: { id: 6, status: 'open' } },
        { entity: 'message', op: 'upsert', data: { id: 5, ticketId: 6 } },
      ],
    ]);
  });

  it('reads socket events carrying seq, and ignores those without', () => {
    expect(changeFromEvent('ticket', { action: 'delete', ticketId: 8, seq: 12 })).toEqual({
      seq: 12,
      ops: [{ entity: 'ticket', op: 'delete', id: 8 }],
    });
    expect(changeFromEvent('ticket', { action: 'updateUnread', ticketId: 8, seq: 13 })).toEqual({
      seq: 13,
      ops: [{ entity: 'ticket', op: 'patch', id: 8, fields: { unreadMessages: 0 } }],
    });
    expect(changeFromEvent('contact', { action: 'update', contact: { id: 2 } })).toBeNull();
    expect(changeFromEvent('user', { action: 'update', seq: 3 })).toBeNull();
  });
});

describe('page compaction', () => {
  it('keeps only the last upsert of a ticket, contact or tag, and every message op', () => {
    const t = (id: number, v: number): Op => ({ entity: 'ticket', op: 'upsert', data: { id, v } });
    const m = (id: number): Op => ({ entity: 'message', op: 'upsert', data: { id, ticketId: 1 } });
    const del: Op = { entity: 'ticket', op: 'delete', id: 1 };
    const patch: Op = { entity: 'ticket', op: 'patch', id: 1, fields: { unreadMessages: 0 } };
    expect(compactOps([t(1, 1), m(10), t(2, 1), t(1, 2), m(10), del, patch, t(1, 3)])).toEqual([
      m(10),
      t(2, 1),
      m(10),
      del,
      patch,
      t(1, 3),
    ]);
    expect(compactOps([t(1, 1), del])).toEqual([t(1, 1), del]);
  });
});

describe.each(KITS)('sync engine over the %o store', (makeKit) => {
  it('applies live events in order and follows the server', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit());
    await client.start();
    await client.connect();
    const contact = server.upsertContact('Ana');
    const ticket = server.createTicket(contact.id);
    server.inbound(ticket.id, 'oi');
    server.upsertTag('VIP');
    await client.settle();
    expect(client.kit.state()).toEqual(serverState(server));
  });

  it('detects a gap, holds later events, pulls the missing ones and then applies in order', async () => {
    const server = new FakeServer();
    const kit = makeKit();
    const clock = new ManualClock();
    const applied: number[] = [];
    const engine = new SyncEngine({
      store: kit.store,
      clock,
      gapGraceMs: 300,
      transport: {
        fetchChanges: async (after, limit) => server.changes(after, limit),
        fetchSnapshot: async () => server.snapshot(),
      },
      onApplied: (ops: Op[]) => void applied.push(ops.length),
    });
    await engine.start();
    const events: Change[] = [];
    server.subscribe((name, payload) => events.push(changeFromEvent(name, payload)!));
    const contact = server.upsertContact('Bia');
    const ticket = server.createTicket(contact.id);
    server.inbound(ticket.id, 'um');
    server.inbound(ticket.id, 'dois');
    // Event 2 is lost; 3 and 4 arrive.
    await engine.receive(events[0]!);
    await engine.receive(events[2]!);
    await engine.receive(events[3]!);
    expect(engine.position).toBe(1);
    expect(clock.pendingTimers).toBe(1);
    clock.advance(300);
    await engine.idle();
    expect(engine.position).toBe(4);
    expect(kit.state()).toEqual(serverState(server));
  });

  it('a late event inside the grace period fills the gap without a pull', async () => {
    const server = new FakeServer();
    const kit = makeKit();
    const clock = new ManualClock();
    let pulls = 0;
    const engine = new SyncEngine({
      store: kit.store,
      clock,
      gapGraceMs: 300,
      transport: {
        fetchChanges: async (after, limit) => {
          pulls++;
          return server.changes(after, limit);
        },
        fetchSnapshot: async () => server.snapshot(),
      },
    });
    await engine.start();
    const events: Change[] = [];
    server.subscribe((name, payload) => events.push(changeFromEvent(name, payload)!));
    server.upsertTag('a');
    server.upsertTag('b');
    await engine.receive(events[1]!);
    await engine.receive(events[0]!);
    clock.advance(1000);
    await engine.idle();
    expect(pulls).toBe(0);
    expect(engine.position).toBe(2);
  });

  it('pulls what it missed while disconnected, page by page', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit(), { pageSize: 7 });
    await client.start();
    await client.connect();
    client.disconnect();
    const contact = server.upsertContact('Caio');
    const ticket = server.createTicket(contact.id);
    for (let i = 0; i < 30; i++) server.inbound(ticket.id, `m${i}`);
    expect(client.kit.state().messages).toHaveLength(0);
    await client.connect();
    expect(client.kit.state()).toEqual(serverState(server));
  });

  it('resyncs from a snapshot when the log was pruned past its cursor', async () => {
    const server = new FakeServer();
    const client = new FakeClient(server, makeKit());
    await client.start();
    await client.connect();
    const gone = server.upsertTag('will be deleted');
    await client.settle();
    client.disconnect();
    server.deleteTag(gone.id);
    const contact = server.upsertContact('Duda');
    server.inbound(server.createTicket(contact.id).id, 'depois da poda');
    server.prune();
    server.upsertTag('after prune');
    await client.connect();
    expect(client.kit.state()).toEqual(serverState(server));
    // The snapshot is read at the head the reset answer stated.
    expect(client.snapshotHeads).toEqual([server.seq]);
  });

  it('a malformed feed answer fails the pull with a clear error and leaves the cache', async () => {
    const kit = makeKit();
    const engine = new SyncEngine({
      store: kit.store,
      clock: new ManualClock(),
      transport: {
        fetchChanges: async () => ({ resetRequired: true }),
        fetchSnapshot: () => Promise.reject(new Error('no snapshot without a head')),
      },
    });
    await engine.start();
    await expect(engine.pull()).rejects.toThrow(/after=0: not a feed answer \(head: /);
    expect(kit.state().cursor).toBe(0);
  });

  it('a reset right after a resync stops instead of resyncing again and again', async () => {
    const kit = makeKit();
    let snapshots = 0;
    const engine = new SyncEngine({
      store: kit.store,
      clock: new ManualClock(),
      transport: {
        fetchChanges: async () => ({ resetRequired: true, head: 5 }),
        fetchSnapshot: async (head) => {
          snapshots++;
          return { cursor: head, tickets: [], contacts: [], tags: [], messages: [] };
        },
      },
    });
    await engine.start();
    await expect(engine.pull()).rejects.toThrow(/reset again after a resync at 5/);
    expect(snapshots).toBe(1);
    expect(engine.position).toBe(5);
  });

  it('drops events it already has', async () => {
    const server = new FakeServer();
    const kit = memoryKit();
    const client = new FakeClient(server, kit);
    await client.start();
    await client.connect();
    server.upsertTag('x');
    await client.settle();
    await client.engine.receive({ seq: 1, ops: [{ entity: 'tag', op: 'delete', id: 1 }] });
    expect(kit.state().tags).toHaveLength(1);
  });
});
