import type {
  Entity,
  EntityData,
  OptimisticMessage,
  Op,
  OutboxEntry,
  OutboxStore,
  Snapshot,
  SyncStore,
} from './types.js';

/** A message as the lists show it: the server's, or the optimistic one until its ack. */
export type CachedMessage =
  (EntityData & { pending?: false }) | (OptimisticMessage & { pending: true });

const byCreatedAt = (a: CachedMessage, b: CachedMessage) =>
  String(a.createdAt ?? '').localeCompare(String(b.createdAt ?? ''));

/**
 * The cache in memory, for the web build (and tests): the same semantics as the SQLite cache.
 * Methods are synchronous, so each is trivially atomic.
 */
export class MemoryStore implements SyncStore, OutboxStore {
  cursor = 0;
  readonly tickets = new Map<number, EntityData>();
  readonly contacts = new Map<number, EntityData>();
  readonly tags = new Map<number, EntityData>();
  readonly messages = new Map<number, EntityData>();
  readonly chats = new Map<number, EntityData>();
  readonly chatMessages = new Map<number, EntityData>();
  readonly optimistic = new Map<string, OptimisticMessage>();
  readonly outbox = new Map<string, OutboxEntry>();

  getCursor(): number {
    return this.cursor;
  }

  applyChanges(ops: Op[], cursor: number): void {
    for (const op of ops) this.applyOp(op);
    this.cursor = cursor;
  }

  replaceAll(snapshot: Snapshot): void {
    for (const map of [
      this.tickets,
      this.contacts,
      this.tags,
      this.messages,
      this.chats,
      this.chatMessages,
    ])
      map.clear();
    for (const t of snapshot.tickets) this.tickets.set(t.id, t);
    for (const c of snapshot.chats ?? []) this.chats.set(c.id, c);
    for (const m of snapshot.chatMessages ?? []) this.chatMessages.set(m.id, m);
    for (const c of snapshot.contacts) this.contacts.set(c.id, c);
    for (const t of snapshot.tags) this.tags.set(t.id, t);
    for (const m of snapshot.messages) this.upsertMessage(m);
    for (const clientId of this.optimistic.keys()) {
      if (!this.outbox.has(clientId)) this.optimistic.delete(clientId);
    }
    this.cursor = snapshot.cursor;
  }

  addOutgoing(entry: OutboxEntry, optimistic: OptimisticMessage): void {
    this.outbox.set(entry.clientId, { ...entry });
    this.optimistic.set(entry.clientId, { ...optimistic });
  }

  listOutgoing(): OutboxEntry[] {
    return [...this.outbox.values()].map((e) => ({ ...e }));
  }

  updateOutgoing(entry: OutboxEntry): void {
    if (this.outbox.has(entry.clientId)) this.outbox.set(entry.clientId, { ...entry });
  }

  ackOutgoing(clientId: string, message: EntityData): void {
    this.outbox.delete(clientId);
    this.upsertMessage({ ...message, clientId });
  }

  discardOutgoing(clientId: string): void {
    this.outbox.delete(clientId);
    this.optimistic.delete(clientId);
  }

  getTicket(id: number): EntityData | null {
    return this.tickets.get(id) ?? null;
  }

  /** The ticket's messages, oldest first, optimistic ones included. */
  messagesOf(ticketId: number): CachedMessage[] {
    const server = [...this.messages.values()].filter((m) => m.ticketId === ticketId);
    const local = [...this.optimistic.values()].filter((m) => m.ticketId === ticketId);
    return [
      ...server.map((m) => ({ ...m, pending: false as const })),
      ...local.map((m) => ({ ...m, pending: true as const })),
    ].sort(byCreatedAt);
  }

  private applyOp(op: Op): void {
    if (op.op === 'patch') {
      const map = op.entity === 'message' ? this.messages : this.mapOf(op.entity);
      const current = map.get(op.id);
      if (current) map.set(op.id, { ...current, ...op.fields });
      return;
    }
    if (op.entity === 'message') {
      if (op.op === 'upsert') this.upsertMessage(op.data);
      else this.messages.delete(op.id);
      return;
    }
    const map = this.mapOf(op.entity);
    if (op.op === 'upsert') {
      map.set(op.data.id, op.data);
      return;
    }
    map.delete(op.id);
    // A ticket leaving the viewer's sight takes its messages with it; a chat too.
    if (op.entity === 'ticket') {
      for (const [id, m] of this.messages) if (m.ticketId === op.id) this.messages.delete(id);
    }
    if (op.entity === 'chat') {
      for (const [id, m] of this.chatMessages) if (m.chatId === op.id) this.chatMessages.delete(id);
    }
  }

  private upsertMessage(data: EntityData): void {
    if (typeof data.clientId === 'string') this.optimistic.delete(data.clientId);
    this.messages.set(data.id, data);
  }

  private mapOf(entity: Exclude<Entity, 'message'>): Map<number, EntityData> {
    if (entity === 'ticket') return this.tickets;
    if (entity === 'contact') return this.contacts;
    if (entity === 'chat') return this.chats;
    if (entity === 'chatMessage') return this.chatMessages;
    return this.tags;
  }
}
