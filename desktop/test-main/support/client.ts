import { randomUUID } from 'node:crypto';
import { openCache } from '../../src/main/cache/open.js';
import { SqliteStore } from '../../src/main/cache/sqlite-store.js';
import { MemoryStore } from '../../src/main/core/memory-store.js';
import { Outbox, type MessageTransport } from '../../src/main/core/outbox.js';
import { changeFromEvent } from '../../src/main/core/protocol.js';
import { SyncEngine, type SyncTransport } from '../../src/main/core/sync-engine.js';
import type { EntityData, OutboxEntry, OutboxStore, SyncStore } from '../../src/main/core/types.js';
import { ManualClock } from './clock.js';
import type { FakeServer } from './fake-server.js';

/** What a cache holds, in a comparable form. */
export interface CacheState {
  cursor: number;
  tickets: EntityData[];
  contacts: EntityData[];
  tags: EntityData[];
  messages: EntityData[];
  /** Optimistic replies not yet acknowledged, by clientId. */
  pending: string[];
}

export interface StoreKit {
  name: string;
  store: SyncStore & OutboxStore;
  state(): CacheState;
}

const byId = (a: EntityData, b: EntityData) => a.id - b.id;

export function memoryKit(): StoreKit {
  const store = new MemoryStore();
  return {
    name: 'memory',
    store,
    state: () => ({
      cursor: store.cursor,
      tickets: [...store.tickets.values()].sort(byId),
      contacts: [...store.contacts.values()].sort(byId),
      tags: [...store.tags.values()].sort(byId),
      messages: [...store.messages.values()].sort(byId),
      pending: [...store.optimistic.keys()].sort(),
    }),
  };
}

export function sqliteKit(db = openCache()): StoreKit & { store: SqliteStore } {
  const store = new SqliteStore(db);
  const all = (table: string) =>
    (db.prepare(`SELECT data FROM ${table} ORDER BY id`).all() as { data: string }[]).map(
      (r) => JSON.parse(r.data) as EntityData,
    );
  return {
    name: 'sqlite',
    store,
    state: () => ({
      cursor: store.getCursor(),
      tickets: all('tickets'),
      contacts: all('contacts'),
      tags: all('tags'),
      messages: (
        db.prepare(`SELECT data FROM messages WHERE id IS NOT NULL ORDER BY id`).all() as {
          data: string;
        }[]
      ).map((r) => JSON.parse(r.data) as EntityData),
      pending: (
        db.prepare(`SELECT clientId FROM messages WHERE id IS NULL ORDER BY clientId`).all() as {
          clientId: string;
        }[]
      ).map((r) => r.clientId),
    }),
  };
}

export const KITS = [memoryKit, sqliteKit];

/** An agent's client wired to the fake server: its socket, its feed pulls and its sends. */
export class FakeClient {
  readonly clock = new ManualClock();
  readonly engine: SyncEngine;
  readonly outbox: Outbox;
  online = false;
  /** The next send reaches the server but its answer is lost on the way back. */
  loseNextAnswer = false;
  held: OutboxEntry[] = [];
  /** The feed head each full resync was asked for. */
  snapshotHeads: number[] = [];
  /** How many of the next socket events are lost on the way (the socket stays up). */
  dropEvents = 0;
  /** While set, socket events are held back; `release()` delivers them newest first. */
  holding = false;
  private held_: { name: string; payload: unknown }[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(
    readonly server: FakeServer,
    readonly kit: StoreKit,
    options: { userId?: number; gapGraceMs?: number; pageSize?: number } = {},
  ) {
    const sync: SyncTransport = {
      fetchChanges: async (after, limit) => {
        if (!this.online) throw new Error('offline');
        return server.changes(after, limit);
      },
      fetchSnapshot: async (head) => {
        if (!this.online) throw new Error('offline');
        this.snapshotHeads.push(head);
        return server.snapshot();
      },
    };
    const messages: MessageTransport = {
      sendMessage: async (input) => {
        if (!this.online) throw new Error('offline');
        const result = server.send(input);
        if (this.loseNextAnswer) {
          this.loseNextAnswer = false;
          throw new Error('connection reset');
        }
        return JSON.parse(JSON.stringify(result)) as typeof result;
      },
    };
    this.engine = new SyncEngine({
      store: kit.store,
      transport: sync,
      clock: this.clock,
      gapGraceMs: options.gapGraceMs ?? 0,
      pageSize: options.pageSize ?? 50,
      onError: () => undefined,
    });
    this.outbox = new Outbox({
      store: kit.store,
      transport: messages,
      clock: this.clock,
      userId: () => options.userId ?? 1,
      newClientId: randomUUID,
      random: () => 0.5,
      onHeld: (entry) => this.held.push(entry),
    });
  }

  async start(): Promise<void> {
    await this.engine.start();
  }

  /** The socket delivers `deliver` (default: every event as it happens). */
  async connect(): Promise<void> {
    this.online = true;
    this.unsubscribe = this.server.subscribe((name, payload) => {
      if (this.dropEvents > 0) {
        this.dropEvents--;
        return;
      }
      if (this.holding) {
        this.held_.push({ name, payload: JSON.parse(JSON.stringify(payload)) });
        return;
      }
      this.deliver(name, payload);
    });
    await this.engine.connected().catch(() => undefined);
    this.outbox.setOnline(true);
    await this.settle();
  }

  /** Delivers the held-back events in reverse order (events overtaking each other). */
  release(): void {
    this.holding = false;
    for (const { name, payload } of this.held_.splice(0).reverse()) this.deliver(name, payload);
  }

  private deliver(name: string, payload: unknown): void {
    const change = changeFromEvent(name, JSON.parse(JSON.stringify(payload)));
    if (change) void this.engine.receive(change).catch(() => undefined);
  }

  disconnect(): void {
    this.holding = false;
    this.held_.length = 0;
    this.online = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.engine.disconnected();
    this.outbox.setOnline(false);
  }

  /** Lets queued writes, due timers and sends run. */
  async settle(): Promise<void> {
    for (let i = 0; i < 5; i++) {
      await this.engine.idle();
      await this.outbox.flush().catch(() => undefined);
      await this.engine.idle();
      this.clock.advance(0);
    }
  }
}
