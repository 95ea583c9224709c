// The simulated WhatsApp network, kept in Redis so the control API (on an api process) and the
// session (on whichever worker holds its lease) see the same phone, queues and records.
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Ack, ContactCard, Location } from '../port.js';

/** Failures WhatsApp really produces, switched on per connection by the control API. */
export interface SimFaults {
  /** Deliver every inbound message twice. */
  duplicate: boolean;
  /** Deliver inbound messages that arrive close together in swapped pairs. */
  outOfOrder: boolean;
  /** On reconnect, deliver again (offline) every inbound message the platform has not read. */
  replayOnReconnect: boolean;
  /** Deliver a `ciphertext` placeholder first, then the real content under the same id. */
  ciphertextFirst: boolean;
  /**
   * Real WhatsApp: a message counts as delivered (the receipt) once handed to the session and is
   * never delivered again, whatever happens to the session. Overrides replayOnReconnect and
   * duplicate, so a test proves our inbox, not the simulator's replay.
   */
  noReplay: boolean;
}

export const NO_FAULTS: SimFaults = {
  duplicate: false,
  outOfOrder: false,
  replayOnReconnect: false,
  ciphertextFirst: false,
  noReplay: false,
};

/** How many times each inbound message was handed to a session (the receipts WhatsApp saw). */
export interface SimDeliveries {
  handedOver: number;
  /** Ids handed over more than once. */
  redelivered: string[];
}

// Takes the oldest ARGV[1] rows of the inbox and counts each message's handover in one step: a
// message is either still waiting or counted as delivered, never both, never neither.
const TAKE_INBOX = `
local rows = redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
redis.call('LTRIM', KEYS[1], #rows, -1)
local counts = {}
for i, row in ipairs(rows) do
  local d = cjson.decode(row)
  if d.kind == 'message' then
    counts[i] = redis.call('HINCRBY', KEYS[2], d.message.id, 1)
  else
    counts[i] = 0
  end
end
return {rows, counts}`;

/** A customer's message as the control API accepted it, waiting for the session. */
export interface SimInbound {
  id: string;
  from: string;
  name?: string;
  body: string;
  media?: { mimetype: string; fileName?: string; size: number; locator: string };
  quotedId?: string;
  lid?: string;
  group?: { id: string; subject?: string };
  /** When WhatsApp received it (ms); later than the session's connect time means live. */
  at: number;
}

export type SimDelivery =
  | { kind: 'message'; message: SimInbound }
  | { kind: 'ack'; chatId: string; id: string; ack: Ack; at: number };

export type SimControl = { kind: 'scan'; number: string } | { kind: 'drop'; code: number };

/** One thing the platform sent, in the order it sent it. */
export interface SimOutbound {
  seq: number;
  id: string;
  kind: 'text' | 'media' | 'location' | 'contacts' | 'edit' | 'delete' | 'react';
  to: string;
  chatId: string;
  body?: string;
  media?: {
    kind: string;
    mimetype: string;
    fileName?: string;
    caption?: string;
    voiceNote?: boolean;
    size: number;
    sha256: string;
  };
  location?: Location;
  cards?: ContactCard[];
  quotedId?: string;
  /** The message an edit, delete or reaction targets. */
  targetId?: string;
  emoji?: string;
  ack: Ack;
  at: number;
}

export interface SimState {
  linked: boolean;
  number: string;
  faults: SimFaults;
  reads: string[];
  presence: Record<string, string>;
}

const MEDIA_TTL_S = 7 * 24 * 3600;

/** WhatsApp-looking message ids: 3EB0 followed by upper-case hex. */
export const newMessageId = () => `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;

/** A bare phone number becomes a user address; anything with '@' already is one. */
export const chatIdOf = (to: string) =>
  to.includes('@') ? to : `${to.replace(/\D/g, '')}@s.whatsapp.net`;

export const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

export class SimNetwork {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** The pub/sub channel that tells a session holder its lists have something. */
  get wakeChannel() {
    return `${this.prefix}:sim:wake`;
  }

  private key(connectionId: string, part: string) {
    return `${this.prefix}:sim:${connectionId}:${part}`;
  }

  private wake(connectionId: string) {
    return this.redis.publish(this.wakeChannel, connectionId);
  }

  // ---- the control side (what a phone, a customer and WhatsApp's servers do) ----

  async scan(connectionId: string, number: string): Promise<void> {
    await this.redis.rpush(this.key(connectionId, 'ctl'), JSON.stringify({ kind: 'scan', number }));
    await this.wake(connectionId);
  }

  async drop(connectionId: string, code: number): Promise<void> {
    await this.redis.rpush(this.key(connectionId, 'ctl'), JSON.stringify({ kind: 'drop', code }));
    await this.wake(connectionId);
  }

  async inbound(connectionId: string, message: SimInbound, media?: Uint8Array): Promise<void> {
    await this.inboundMany([{ connectionId, message, ...(media && { media }) }]);
  }

  /**
   * Customers' messages, in order, in one round trip to Redis; each connection is woken once.
   * (A load test sends thousands a second; one call per message would measure the simulator.)
   */
  async inboundMany(
    items: { connectionId: string; message: SimInbound; media?: Uint8Array }[],
  ): Promise<void> {
    const tx = this.redis.multi();
    const woken = new Set<string>();
    for (const { connectionId, message, media } of items) {
      if (media && message.media) {
        tx.set(
          this.key(connectionId, `media:${message.media.locator}`),
          Buffer.from(media),
          'EX',
          MEDIA_TTL_S,
        );
      }
      const delivery: SimDelivery = { kind: 'message', message };
      tx.rpush(this.key(connectionId, 'inbox'), JSON.stringify(delivery));
      tx.hset(this.key(connectionId, 'unread'), message.id, JSON.stringify(message));
      // Whoever wrote is in the simulated phone's contacts (what an agenda import reads).
      if (!message.group) tx.hset(this.key(connectionId, 'book'), message.from, message.name ?? '');
      woken.add(connectionId);
    }
    for (const connectionId of woken) tx.publish(this.wakeChannel, connectionId);
    await tx.exec();
  }

  /** A receipt for something the platform sent; false when no such message was sent. */
  async ack(connectionId: string, id: string, ack: Ack): Promise<boolean> {
    const list = await this.outbound(connectionId);
    const index = list.findIndex((r) => r.id === id);
    const record = list[index];
    if (!record) return false;
    record.ack = Math.max(record.ack, ack) as Ack;
    await this.redis.lset(this.key(connectionId, 'outbound'), index, JSON.stringify(record));
    const delivery: SimDelivery = { kind: 'ack', chatId: record.chatId, id, ack, at: Date.now() };
    await this.redis.rpush(this.key(connectionId, 'inbox'), JSON.stringify(delivery));
    await this.wake(connectionId);
    return true;
  }

  async outbound(connectionId: string): Promise<SimOutbound[]> {
    const rows = await this.redis.lrange(this.key(connectionId, 'outbound'), 0, -1);
    return rows.map((row) => JSON.parse(row) as SimOutbound);
  }

  async setFaults(connectionId: string, faults: Partial<SimFaults>): Promise<SimFaults> {
    const next = { ...(await this.faults(connectionId)), ...faults };
    await this.redis.hset(this.key(connectionId, 'state'), 'faults', JSON.stringify(next));
    return next;
  }

  async state(connectionId: string): Promise<SimState> {
    const [state, reads, presence] = await Promise.all([
      this.redis.hgetall(this.key(connectionId, 'state')),
      this.redis.lrange(this.key(connectionId, 'reads'), 0, -1),
      this.redis.hgetall(this.key(connectionId, 'presence')),
    ]);
    return {
      linked: state.linked === '1',
      number: state.number ?? '',
      faults: { ...NO_FAULTS, ...(state.faults ? (JSON.parse(state.faults) as SimFaults) : {}) },
      reads,
      presence,
    };
  }

  /** Everything the simulator knows about a connection goes (the connection was deleted). */
  async forget(connectionId: string): Promise<void> {
    const parts = [
      'ctl',
      'inbox',
      'unread',
      'outbound',
      'seq',
      'state',
      'reads',
      'presence',
      'delivered',
      'book',
    ];
    // Media keys expire on their own.
    await this.redis.del(...parts.map((part) => this.key(connectionId, part)));
  }

  // ---- the session side (what the simulated phone's linked device sees) ----

  /** The simulated phone's contacts: number → name. */
  async addressBook(connectionId: string): Promise<{ phone: string; name: string }[]> {
    const book = await this.redis.hgetall(this.key(connectionId, 'book'));
    return Object.entries(book).map(([phone, name]) => ({ phone, name }));
  }

  async faults(connectionId: string): Promise<SimFaults> {
    const text = await this.redis.hget(this.key(connectionId, 'state'), 'faults');
    return { ...NO_FAULTS, ...(text ? (JSON.parse(text) as Partial<SimFaults>) : {}) };
  }

  private async take<T>(connectionId: string, part: string): Promise<T[]> {
    const key = this.key(connectionId, part);
    const result = await this.redis.multi().lrange(key, 0, -1).del(key).exec();
    const rows = (result?.[0]?.[1] as string[] | undefined) ?? [];
    return rows.map((row) => JSON.parse(row) as T);
  }

  takeControl(connectionId: string): Promise<SimControl[]> {
    return this.take<SimControl>(connectionId, 'ctl');
  }

  /**
   * The oldest deliveries waiting for the session (at most `limit`), each message with the number
   * of times it has now been handed over (1 the first time).
   */
  async takeInbox(
    connectionId: string,
    limit = Number.MAX_SAFE_INTEGER,
  ): Promise<{ delivery: SimDelivery; handovers: number }[]> {
    const [rows, counts] = (await this.redis.eval(
      TAKE_INBOX,
      2,
      this.key(connectionId, 'inbox'),
      this.key(connectionId, 'delivered'),
      Math.min(limit, 2 ** 31 - 1),
    )) as [string[], number[]];
    return rows.map((row, i) => ({
      delivery: JSON.parse(row) as SimDelivery,
      handovers: counts[i] ?? 0,
    }));
  }

  /** Counts a replayed message's handover; returns how many times it has been handed over. */
  countHandover(connectionId: string, id: string): Promise<number> {
    return this.redis.hincrby(this.key(connectionId, 'delivered'), id, 1);
  }

  async deliveries(connectionId: string): Promise<SimDeliveries> {
    const counts = await this.redis.hgetall(this.key(connectionId, 'delivered'));
    const entries = Object.entries(counts);
    return {
      handedOver: entries.length,
      redelivered: entries.filter(([, n]) => Number(n) > 1).map(([id]) => id),
    };
  }

  /** Inbound messages not read yet and not waiting in the inbox: what a replay delivers. */
  async unreadDelivered(connectionId: string): Promise<SimInbound[]> {
    const [unread, inbox] = await Promise.all([
      this.redis.hvals(this.key(connectionId, 'unread')),
      this.redis.lrange(this.key(connectionId, 'inbox'), 0, -1),
    ]);
    const waiting = new Set(
      inbox
        .map((row) => JSON.parse(row) as SimDelivery)
        .flatMap((d) => (d.kind === 'message' ? [d.message.id] : [])),
    );
    return unread
      .map((row) => JSON.parse(row) as SimInbound)
      .filter((m) => !waiting.has(m.id))
      .sort((a, b) => a.at - b.at);
  }

  async linkedNumber(connectionId: string): Promise<string | undefined> {
    const state = await this.redis.hmget(this.key(connectionId, 'state'), 'linked', 'number');
    return state[0] === '1' ? (state[1] ?? '') : undefined;
  }

  async link(connectionId: string, number: string): Promise<void> {
    await this.redis.hset(this.key(connectionId, 'state'), { linked: '1', number });
  }

  async unlink(connectionId: string): Promise<void> {
    await this.redis.hdel(this.key(connectionId, 'state'), 'linked', 'number');
  }

  /** Appends what the platform sent; returns it with its sequence number. */
  async record(connectionId: string, record: Omit<SimOutbound, 'seq'>): Promise<SimOutbound> {
    const seq = await this.redis.incr(this.key(connectionId, 'seq'));
    const full = { ...record, seq };
    await this.redis.rpush(this.key(connectionId, 'outbound'), JSON.stringify(full));
    return full;
  }

  async markRead(connectionId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.redis
      .multi()
      .hdel(this.key(connectionId, 'unread'), ...ids)
      .rpush(this.key(connectionId, 'reads'), ...ids)
      .exec();
  }

  async setPresence(connectionId: string, chatId: string, presence: string): Promise<void> {
    await this.redis.hset(this.key(connectionId, 'presence'), chatId, presence);
  }

  async media(connectionId: string, locator: string): Promise<Buffer | null> {
    return this.redis.getBuffer(this.key(connectionId, `media:${locator}`));
  }
}
