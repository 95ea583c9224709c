import type { SendResult } from '../../src/main/core/outbox.js';
import type { EntityData, Snapshot } from '../../src/main/core/types.js';

type Entity = 'ticket' | 'message' | 'contact' | 'tag';
interface LogRow {
  seq: number;
  entity: Entity;
  entityId: number;
  action: string;
  payload: Record<string, unknown>;
}
const EVENT: Record<Entity, string> = {
  ticket: 'ticket',
  message: 'appMessage',
  contact: 'contact',
  tag: 'tag',
};

/**
 * The documented server side of offline sync, in memory: a numbered change log with the real
 * feed's row shape and paging, pruning that answers `resetRequired`, socket events carrying
 * `seq`, and sends deduplicated by `clientId`. The real-server tests check the same behaviour
 * against the actual server.
 */
export class FakeServer {
  seq = 0;
  prunedThrough = 0;
  private nextId = 1;
  readonly log: LogRow[] = [];
  readonly tickets = new Map<number, EntityData>();
  readonly contacts = new Map<number, EntityData>();
  readonly tags = new Map<number, EntityData>();
  readonly messages = new Map<number, EntityData>();
  private readonly byClientId = new Map<string, number>();
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();
  sendCalls = 0;

  subscribe(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private stamp(): string {
    return new Date(1_700_000_000_000 + this.seq * 1000 + this.nextId).toISOString();
  }

  private record(
    entity: Entity,
    entityId: number,
    action: string,
    payload: Record<string, unknown>,
  ) {
    const row: LogRow = { seq: ++this.seq, entity, entityId, action, payload };
    this.log.push(row);
    for (const l of this.listeners) l(EVENT[entity], { ...payload, seq: row.seq });
  }

  upsertContact(name: string, id = this.nextId++): EntityData {
    const contact = { id, name, number: `55119${String(id).padStart(8, '0')}` };
    this.contacts.set(id, contact);
    this.record('contact', id, 'update', { action: 'update', contact });
    return contact;
  }

  createTicket(contactId: number, fields: Partial<EntityData> = {}): EntityData {
    const id = this.nextId++;
    const contact = this.contacts.get(contactId);
    const ticket: EntityData = {
      id,
      status: 'open',
      userId: null,
      queueId: null,
      contactId,
      unreadMessages: 0,
      contact: contact ? { id: contactId, name: contact.name } : null,
      updatedAt: this.stamp(),
      ...fields,
    };
    this.tickets.set(id, ticket);
    this.record('ticket', id, 'update', { action: 'update', ticket });
    return ticket;
  }

  updateTicket(id: number, patch: Partial<EntityData>): EntityData {
    const ticket = { ...this.tickets.get(id)!, ...patch, updatedAt: this.stamp() };
    this.tickets.set(id, ticket);
    this.record('ticket', id, 'update', { action: 'update', ticket });
    return ticket;
  }

  /** `PUT /messages/{ticketId}`: the feed says only `updateUnread` with the ticket id. */
  markRead(id: number): void {
    this.tickets.set(id, { ...this.tickets.get(id)!, unreadMessages: 0 });
    this.record('ticket', id, 'updateUnread', { action: 'updateUnread', ticketId: id });
  }

  deleteTicket(id: number): void {
    this.tickets.delete(id);
    for (const [mid, m] of this.messages) if (m.ticketId === id) this.messages.delete(mid);
    this.record('ticket', id, 'delete', { action: 'delete', ticketId: id });
  }

  upsertTag(name: string, id = this.nextId++): EntityData {
    const tag = { id, name, color: '#123456' };
    this.tags.set(id, tag);
    this.record('tag', id, 'update', { action: 'update', tag });
    return tag;
  }

  deleteTag(id: number): void {
    this.tags.delete(id);
    this.record('tag', id, 'delete', { action: 'delete', tagId: id });
  }

  private addMessage(ticketId: number, fields: Partial<EntityData>): EntityData {
    const id = this.nextId++;
    const message: EntityData = {
      id,
      ticketId,
      body: '',
      fromMe: false,
      read: false,
      ack: 0,
      clientId: null,
      createdAt: this.stamp(),
      ...fields,
    };
    this.messages.set(id, message);
    const base = this.tickets.get(ticketId)!;
    const ticket = {
      ...base,
      lastMessage: message.body,
      unreadMessages: message.fromMe ? 0 : Number(base.unreadMessages ?? 0) + 1,
      updatedAt: this.stamp(),
    };
    this.tickets.set(ticketId, ticket);
    this.record('message', id, 'create', { action: 'create', message, ticket });
    return message;
  }

  inbound(ticketId: number, body: string): EntityData {
    return this.addMessage(ticketId, { body, fromMe: false });
  }

  /** `POST /messages/{ticketId}` with a clientId: a resend answers the message already stored. */
  send(input: { ticketId: number; body: string; clientId: string }): SendResult {
    this.sendCalls++;
    const existing = this.byClientId.get(input.clientId);
    if (existing !== undefined) return { ok: true, message: this.messages.get(existing)! };
    const ticket = this.tickets.get(input.ticketId);
    if (!ticket) return { ok: false, status: 404, code: 'ERR_NO_TICKET_FOUND' };
    if (ticket.status === 'closed') return { ok: false, status: 409, code: 'ERR_TICKET_CLOSED' };
    const message = this.addMessage(input.ticketId, {
      body: input.body,
      fromMe: true,
      read: true,
      clientId: input.clientId,
    });
    this.byClientId.set(input.clientId, message.id);
    return { ok: true, message };
  }

  /** `GET /sync/changes?after=&limit=` as JSON, in the real feed's row shape. */
  changes(after: number, limit: number): unknown {
    if (after < this.prunedThrough || after > this.seq) {
      return { resetRequired: true, head: this.seq };
    }
    const rows = this.log.filter((r) => r.seq > after).slice(0, limit);
    return JSON.parse(
      JSON.stringify({
        changes: rows,
        hasMore: rows.length === limit,
        last: rows.length ? rows[rows.length - 1]!.seq : after,
        head: this.seq,
      }),
    );
  }

  /** Forgets the log up to the current number: older cursors must resync. */
  prune(): void {
    this.prunedThrough = this.seq;
    this.log.length = 0;
  }

  snapshot(): Snapshot {
    const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
    return {
      cursor: this.seq,
      tickets: copy([...this.tickets.values()]),
      contacts: copy([...this.contacts.values()]),
      tags: copy([...this.tags.values()]),
      messages: copy([...this.messages.values()]),
    };
  }
}
