import type { Clock, EntityData, OutboxEntry, OutboxStore } from './types.js';

export interface SendInput {
  ticketId: number;
  body: string;
  clientId: string;
  quotedMsgId: number | null;
}

/** The server's answer to a send; a network failure (no answer) rejects instead. */
export type SendResult =
  { ok: true; message: EntityData } | { ok: false; status: number; code: string };

export interface MessageTransport {
  sendMessage(input: SendInput): Promise<SendResult>;
}

export interface OutboxOptions {
  store: OutboxStore;
  transport: MessageTransport;
  clock: Clock;
  /** The signed-in agent; a ticket assigned to someone else holds the reply. */
  userId: () => number | null;
  newClientId: () => string;
  random?: () => number;
  /** A reply was held: the agent must choose to send it anyway or discard it. */
  onHeld?: (entry: OutboxEntry) => void;
  /** Something in the outbox changed (for the renderer to reload). */
  onChanged?: () => void;
}

/** Server refusals that mean "the ticket is not yours to answer now": ask the agent. */
export const HOLD_CODES: ReadonlySet<string> = new Set([
  'ERR_TICKET_CLOSED',
  'ERR_TICKET_ACCESS_DENIED',
  'ERR_TICKET_NOT_OWN',
  'ERR_INVALID_TICKET_TRANSITION',
  'ERR_NO_TICKET_FOUND',
]);

export const MAX_RETRY_DELAY_MS = 60_000;

/** Exponential backoff from 1 s to a minute, with jitter so clients do not retry in step. */
export function retryDelay(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.5 + random() / 2));
}

/** Why a reply to this ticket should wait for the agent, or null to send it. */
export function holdReason(ticket: EntityData | null, userId: number | null): string | null {
  if (!ticket) return 'ticket-missing';
  if (ticket.status === 'closed') return 'ticket-closed';
  const owner = ticket.userId;
  if (typeof owner === 'number' && userId !== null && owner !== userId) return 'ticket-reassigned';
  return null;
}

/**
 * Replies written offline or online alike: stored with their optimistic message in one
 * transaction, sent in the order written when online, retried with backoff, never doubled
 * (the server dedupes by `clientId`), and held for the agent when the ticket changed hands.
 */
export class Outbox {
  private online = false;
  private flushing: Promise<void> | null = null;
  private again = false;
  private retryTimer: unknown = null;
  private readonly random: () => number;

  constructor(private readonly options: OutboxOptions) {
    this.random = options.random ?? Math.random;
  }

  async compose(input: {
    ticketId: number;
    body: string;
    quotedMsgId?: number | null;
  }): Promise<OutboxEntry> {
    const now = this.options.clock.now();
    const entry: OutboxEntry = {
      clientId: this.options.newClientId(),
      ticketId: input.ticketId,
      body: input.body,
      quotedMsgId: input.quotedMsgId ?? null,
      createdAt: now,
      attempts: 0,
      nextAttemptAt: now,
      state: 'pending',
      reason: null,
      confirmed: false,
    };
    await this.options.store.addOutgoing(entry, {
      clientId: entry.clientId,
      ticketId: entry.ticketId,
      body: entry.body,
      fromMe: true,
      ack: 0,
      quotedMsgId: entry.quotedMsgId,
      userId: this.options.userId(),
      createdAt: new Date(now).toISOString(),
    });
    this.options.onChanged?.();
    if (this.online) void this.flush().catch(() => undefined);
    return entry;
  }

  setOnline(online: boolean): void {
    this.online = online;
    if (online) void this.flush().catch(() => undefined);
    else this.cancelRetry();
  }

  /** The agent chose to send a held reply anyway. */
  async confirm(clientId: string): Promise<void> {
    const entry = (await this.options.store.listOutgoing()).find((e) => e.clientId === clientId);
    if (!entry || entry.state === 'pending') return;
    await this.options.store.updateOutgoing({
      ...entry,
      state: 'pending',
      reason: null,
      confirmed: true,
      nextAttemptAt: this.options.clock.now(),
    });
    this.options.onChanged?.();
    if (this.online) await this.flush();
  }

  /** The agent dropped a held or failed reply: the replies waiting behind it may go now. */
  async discard(clientId: string): Promise<void> {
    await this.options.store.discardOutgoing(clientId);
    this.options.onChanged?.();
    if (this.online) await this.flush();
  }

  /** Sends what is due; concurrent calls run one more pass after the current one. */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      try {
        do {
          this.again = false;
          await this.sendDue();
        } while (this.again && this.online);
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  private async sendDue(): Promise<void> {
    const { store, clock } = this.options;
    const entries = (await store.listOutgoing()).sort((a, b) => a.createdAt - b.createdAt);
    // A ticket whose earlier reply waits keeps its later replies waiting: order is preserved.
    const blocked = new Set<number>();
    for (const entry of entries) {
      if (!this.online) return;
      if (entry.state !== 'pending' || blocked.has(entry.ticketId)) {
        if (entry.state !== 'failed') blocked.add(entry.ticketId);
        continue;
      }
      if (entry.nextAttemptAt > clock.now()) {
        this.scheduleRetry(entry.nextAttemptAt - clock.now());
        return;
      }
      const reason = entry.confirmed
        ? null
        : holdReason(await store.getTicket(entry.ticketId), this.options.userId());
      if (reason) {
        await this.hold(entry, reason);
        blocked.add(entry.ticketId);
        continue;
      }
      if (!(await this.sendOne(entry))) return;
    }
  }

  /** Sends one entry; false when the network failed and the pass should stop. */
  private async sendOne(entry: OutboxEntry): Promise<boolean> {
    const { store, transport } = this.options;
    let result: SendResult;
    try {
      result = await transport.sendMessage({
        ticketId: entry.ticketId,
        body: entry.body,
        clientId: entry.clientId,
        quotedMsgId: entry.quotedMsgId,
      });
    } catch {
      await this.retryLater(entry, 'network');
      return false;
    }
    if (result.ok) {
      await store.ackOutgoing(entry.clientId, result.message);
      this.options.onChanged?.();
      return true;
    }
    if (result.status >= 500 || result.status === 401 || result.status === 429) {
      await this.retryLater(entry, result.code);
      return false;
    }
    if (HOLD_CODES.has(result.code) && !entry.confirmed) {
      await this.hold(entry, result.code);
      return true;
    }
    await store.updateOutgoing({ ...entry, state: 'failed', reason: result.code });
    this.options.onChanged?.();
    return true;
  }

  private async retryLater(entry: OutboxEntry, reason: string): Promise<void> {
    const attempts = entry.attempts + 1;
    const delay = retryDelay(attempts, this.random);
    const nextAttemptAt = this.options.clock.now() + delay;
    await this.options.store.updateOutgoing({ ...entry, attempts, nextAttemptAt, reason });
    this.scheduleRetry(delay);
  }

  private async hold(entry: OutboxEntry, reason: string): Promise<void> {
    const held: OutboxEntry = { ...entry, state: 'held', reason };
    await this.options.store.updateOutgoing(held);
    this.options.onChanged?.();
    this.options.onHeld?.(held);
  }

  private scheduleRetry(ms: number): void {
    if (this.retryTimer !== null || !this.online) return;
    this.retryTimer = this.options.clock.setTimeout(() => {
      this.retryTimer = null;
      void this.flush().catch(() => undefined);
    }, ms);
  }

  private cancelRetry(): void {
    if (this.retryTimer === null) return;
    this.options.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
