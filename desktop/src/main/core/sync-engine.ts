import { readFeed } from '@atende/shared';
import { opsOfEntry } from './protocol.js';
import type { Awaitable, Change, Clock, Op, Snapshot, SyncStore } from './types.js';

export interface SyncTransport {
  /**
   * `GET /sync/changes?after=&limit=`: the answer's JSON as it came (the shared reader checks
   * it). Rejects on a network failure.
   */
  fetchChanges(after: number, limit: number): Promise<unknown>;
  /** Everything the cache holds, read after feed number `head`, for a full resync at `head`. */
  fetchSnapshot(head: number): Promise<Snapshot>;
}

export type AppliedSource = 'event' | 'pull' | 'reset';

export interface SyncEngineOptions {
  store: SyncStore;
  transport: SyncTransport;
  clock: Clock;
  pageSize?: number;
  /** How long a missing number may be late before the engine pulls (events can overtake). */
  gapGraceMs?: number;
  onApplied?: (ops: Op[], source: AppliedSource) => Awaitable<void>;
  onError?: (error: unknown) => void;
}

export const DEFAULT_PAGE_SIZE = 500;

/**
 * Drops a ticket, contact or tag upsert that a later upsert of the same row in the batch
 * replaces whole: applying the rest gives the same cache (a message brings its ticket, so a
 * busy ticket is otherwise rewritten once per message of the page). Message upserts stay, since
 * each may carry the clientId that turns an optimistic reply into the server's.
 */
export function compactOps(ops: readonly Op[]): Op[] {
  const lastUpsert = new Map<string, number>();
  ops.forEach((op, i) => {
    if (op.op === 'upsert' && op.entity !== 'message')
      lastUpsert.set(`${op.entity}:${op.data.id}`, i);
  });
  return ops.filter(
    (op, i) =>
      op.op !== 'upsert' ||
      op.entity === 'message' ||
      lastUpsert.get(`${op.entity}:${op.data.id}`) === i,
  );
}
export const DEFAULT_GAP_GRACE_MS = 300;

/**
 * Keeps the cache equal to the server's feed: socket events are applied in number order, a gap
 * or a reconnect pulls the feed page by page, and `resetRequired` replaces the cache. Every
 * store write runs through one queue, so an event never lands in the middle of a pull.
 */
export class SyncEngine {
  private cursor = 0;
  private readonly buffer = new Map<number, Change>();
  private queue: Promise<void> = Promise.resolve();
  private pending: Promise<void> | null = null;
  private gapTimer: unknown = null;
  private started = false;
  private readonly pageSize: number;
  private readonly gapGraceMs: number;

  constructor(private readonly options: SyncEngineOptions) {
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.gapGraceMs = options.gapGraceMs ?? DEFAULT_GAP_GRACE_MS;
  }

  get position(): number {
    return this.cursor;
  }

  /** Reads the saved cursor; call once before anything else. */
  async start(): Promise<void> {
    this.cursor = await this.options.store.getCursor();
    this.started = true;
  }

  /** A socket event carrying a feed number. */
  receive(change: Change): Promise<void> {
    return this.enqueue(async () => {
      if (change.seq <= this.cursor) return;
      this.buffer.set(change.seq, change);
      await this.drain();
      this.watchGap();
    });
  }

  /** The socket (re)connected: events may have been missed while it was down. */
  connected(): Promise<void> {
    return this.pull();
  }

  disconnected(): void {
    this.disarmGapTimer();
  }

  /** Pulls the feed until it has no more; concurrent calls share one queued pull. */
  pull(): Promise<void> {
    if (this.pending) return this.pending;
    const run = this.enqueue(async () => {
      this.pending = null;
      this.disarmGapTimer();
      await this.pullPages();
      await this.drain();
      this.watchGap();
    });
    this.pending = run;
    return run;
  }

  /** Resolves when every queued write has run. */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    if (!this.started) return Promise.reject(new Error('SyncEngine.start() was not called'));
    const run = this.queue.then(task);
    this.queue = run.catch((error: unknown) => this.options.onError?.(error));
    return run;
  }

  /** Applies buffered events while they continue the cursor without a hole. */
  private async drain(): Promise<void> {
    for (const seq of [...this.buffer.keys()]) if (seq <= this.cursor) this.buffer.delete(seq);
    for (;;) {
      const next = this.buffer.get(this.cursor + 1);
      if (!next) return;
      await this.options.store.applyChanges(next.ops, next.seq);
      this.buffer.delete(next.seq);
      this.cursor = next.seq;
      await this.options.onApplied?.(next.ops, 'event');
    }
  }

  /** Reads the feed with the shared reader (`readFeed` in shared/src/events) until caught up. */
  private async pullPages(): Promise<void> {
    for (let resets = 0; ; resets++) {
      const result = await readFeed({
        from: this.cursor,
        limit: this.pageSize,
        fetchPage: (after, limit) => this.options.transport.fetchChanges(after, limit),
        applyPage: async (page) => {
          const ops = page.entries.flatMap(opsOfEntry);
          // The page and its cursor commit together: a crash replays the page, never skips it.
          await this.options.store.applyChanges(compactOps(ops), page.cursor);
          this.cursor = page.cursor;
          if (ops.length) await this.options.onApplied?.(ops, 'pull');
        },
      });
      if (result.kind === 'caught-up') return;
      // A second reset right after a resync would only fetch the snapshot again, and again.
      if (resets > 0) {
        throw new Error(`the feed asked for a reset again after a resync at ${this.cursor}`);
      }
      await this.resync(result.head);
    }
  }

  private async resync(head: number): Promise<void> {
    const snapshot = await this.options.transport.fetchSnapshot(head);
    await this.options.store.replaceAll(snapshot);
    this.cursor = snapshot.cursor;
    await this.options.onApplied?.([], 'reset');
  }

  /** A hole before buffered events gets a grace period, then a pull; no hole, no timer. */
  private watchGap(): void {
    if (this.buffer.size === 0) this.disarmGapTimer();
    else this.armGapTimer();
  }

  private armGapTimer(): void {
    if (this.gapTimer !== null) return;
    const fire = () => {
      this.gapTimer = null;
      this.pull().catch(() => undefined);
    };
    this.gapTimer = this.options.clock.setTimeout(fire, this.gapGraceMs);
  }

  private disarmGapTimer(): void {
    if (this.gapTimer === null) return;
    this.options.clock.clearTimeout(this.gapTimer);
    this.gapTimer = null;
  }
}
