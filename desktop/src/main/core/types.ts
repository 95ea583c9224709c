/** The data the sync engine, the outbox and the stores agree on. Pure: runs in main and in the web. */

export type Awaitable<T> = T | Promise<T>;

/** What the cache keeps: the feed's entities, and an internal chat's messages (`chatMessage`). */
export type Entity = 'ticket' | 'message' | 'contact' | 'tag' | 'chat' | 'chatMessage';
/** The change-feed entities the cache keeps (notes are not kept; chat messages come with `chat`). */
export const ENTITIES: readonly Entity[] = ['ticket', 'message', 'contact', 'tag', 'chat'];

/** An entity as the server describes it: at least its id; the rest is kept as given. */
export type EntityData = { id: number } & Record<string, unknown>;

export type Op =
  | { entity: Entity; op: 'upsert'; data: EntityData }
  /** Fields to change on an entity the cache may hold (an event that names no full entity). */
  | { entity: Entity; op: 'patch'; id: number; fields: Record<string, unknown> }
  | { entity: Entity; op: 'delete'; id: number };

/** One numbered change of the company's feed (a socket event), as the operations it means for the cache. */
export interface Change {
  seq: number;
  ops: Op[];
}

/** Everything a full resync replaces the cache with, and the feed number it is valid at. */
export interface Snapshot {
  cursor: number;
  tickets: EntityData[];
  contacts: EntityData[];
  tags: EntityData[];
  messages: EntityData[];
  /** The internal chats the user is a member of, and their newest messages (absent: none). */
  chats?: EntityData[];
  chatMessages?: EntityData[];
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type OutboxState = 'pending' | 'held' | 'failed';

/** A reply waiting to reach the server; `clientId` makes every resend idempotent. */
export interface OutboxEntry {
  clientId: string;
  ticketId: number;
  body: string;
  quotedMsgId: number | null;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number;
  state: OutboxState;
  /** Why it is held or failed: an ERR_* code or a local reason. */
  reason: string | null;
  /** The agent confirmed sending despite the ticket having changed. */
  confirmed: boolean;
}

/** The cache as the sync engine sees it. Every method that writes is one transaction. */
export interface SyncStore {
  getCursor(): Awaitable<number>;
  /** Applies the ops and saves `cursor` in the same transaction. */
  applyChanges(ops: Op[], cursor: number): Awaitable<void>;
  /** Replaces tickets, contacts, tags, messages (keeping unsent replies), chats and the cursor. */
  replaceAll(snapshot: Snapshot): Awaitable<void>;
}

/** The message the agent sees at once, before the server has numbered it. */
export interface OptimisticMessage {
  clientId: string;
  ticketId: number;
  body: string;
  fromMe: true;
  ack: 0;
  quotedMsgId: number | null;
  userId: number | null;
  createdAt: string;
}

/** The cache as the outbox sees it. */
export interface OutboxStore {
  /** Stores the entry and its optimistic message in one transaction. */
  addOutgoing(entry: OutboxEntry, optimistic: OptimisticMessage): Awaitable<void>;
  listOutgoing(): Awaitable<OutboxEntry[]>;
  updateOutgoing(entry: OutboxEntry): Awaitable<void>;
  /** Drops the entry and turns its optimistic message into the server's, in one transaction. */
  ackOutgoing(clientId: string, message: EntityData): Awaitable<void>;
  /** Drops the entry and its optimistic message. */
  discardOutgoing(clientId: string): Awaitable<void>;
  getTicket(id: number): Awaitable<EntityData | null>;
}
