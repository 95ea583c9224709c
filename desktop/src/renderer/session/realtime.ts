import {
  companyEvent,
  platformEvent,
  readFeed,
  type CompanyEventName,
  type PlatformEventName,
} from '@atende/shared';
import type { RealtimeConnection } from '../platform';

/** core §4, §9: the user status ping interval. */
export const USER_STATUS_PING_MS = 300_000;

export interface RealtimeSessionDeps {
  connection: RealtimeConnection;
  companyId: number;
  userId: number;
  /** Gets a fresh token; false when the session is over. */
  refresh(): Promise<boolean>;
  /** The same user signed in elsewhere (the auth event). */
  onSignedInElsewhere(): void;
  /** The handshake failed and no new token could be had. */
  onSessionEnded(): void;
  timers?: Pick<typeof globalThis, 'setInterval' | 'clearInterval'>;
  /** `GET /sync/changes?after=N&limit=L`, the answer as it came: what was missed meanwhile. */
  fetchChanges?(after: number, limit: number): Promise<unknown>;
  /**
   * Reload everything: the feed cannot tell what was missed (pruned, or no number yet), or the
   * catch-up failed. After a reset the session resumes the feed at the head the server stated.
   */
  onResync?(): void;
  /**
   * Every time the socket is (re)connected and its rooms joined. What the change feed does not
   * carry (internal chats, announcements) reloads here: an event sent before the socket was in
   * its rooms — while the page was loading, or while it was away — never reaches it.
   */
  onConnected?(): void;
  /** The server speaks another protocol version (ERR_PROTOCOL_VERSION): no retry helps. */
  onProtocolMismatch?(): void;
}

type Join = readonly [event: string, ...args: unknown[]];

/**
 * The app's socket session: company-scoped subscriptions, rooms re-joined after every
 * reconnect, a refreshed token when the handshake is refused, the user status ping, and the
 * last change-feed number seen (events carry `seq`) for the catch-up sync.
 */
export class RealtimeSession {
  private readonly joins = new Map<string, Join>();
  private readonly cleanups: (() => void)[] = [];
  private readonly ping: ReturnType<typeof setInterval>;
  private readonly timers: NonNullable<RealtimeSessionDeps['timers']>;
  private readonly local = new Map<CompanyEventName, Set<(payload: unknown) => void>>();
  private wasConnected = false;
  private catchingUp: Promise<void> | null = null;
  lastSeq = 0;

  constructor(private readonly deps: RealtimeSessionDeps) {
    this.timers = deps.timers ?? globalThis;
    const { connection } = deps;
    this.cleanups.push(
      connection.onStatus((status) => {
        if (status !== 'connected') return;
        for (const join of this.joins.values()) this.send(join);
        // After a reconnect, replay what was missed in between (ARCHITECTURE: the change feed).
        // A failed catch-up falls back to reloading everything.
        if (this.wasConnected) this.catchUp().catch(() => deps.onResync?.());
        this.wasConnected = true;
        deps.onConnected?.();
      }),
      connection.onConnectError((error) =>
        error.message === 'ERR_PROTOCOL_VERSION'
          ? deps.onProtocolMismatch?.()
          : void this.recover(),
      ),
      this.on('auth', (payload) => {
        const data = payload as { action?: string; user?: { id?: number } };
        if (data.action === 'update' && data.user?.id === deps.userId) deps.onSignedInElsewhere();
      }),
    );
    this.join('joinNotification');
    this.ping = this.timers.setInterval(() => connection.emit('userStatus'), USER_STATUS_PING_MS);
  }

  /** Subscribes to `company-{id}-{name}`. */
  on(name: CompanyEventName, handler: (payload: unknown) => void): () => void {
    const handlers = this.local.get(name) ?? new Set();
    handlers.add(handler);
    this.local.set(name, handlers);
    const off = this.deps.connection.on(companyEvent(this.deps.companyId, name), (payload) => {
      const seq = (payload as { seq?: unknown } | null)?.seq;
      if (typeof seq === 'number' && seq > this.lastSeq) this.lastSeq = seq;
      handler(payload);
    });
    return () => {
      handlers.delete(handler);
      off();
    };
  }

  /** Subscribes to a platform-wide event (`company-{name}`, e.g. `company-announcement`). */
  onPlatform(name: PlatformEventName, handler: (payload: unknown) => void): () => void {
    return this.deps.connection.on(platformEvent(name), handler);
  }

  /**
   * Pages through the change feed after `lastSeq` with the shared reader (`readFeed`), replaying
   * each change as its event; a reset reloads everything and moves `lastSeq` to the head.
   */
  catchUp(): Promise<void> {
    this.catchingUp ??= this.replayMissed().finally(() => (this.catchingUp = null));
    return this.catchingUp;
  }

  private async replayMissed(): Promise<void> {
    const { fetchChanges, onResync } = this.deps;
    if (!fetchChanges) return;
    if (this.lastSeq === 0) return onResync?.();
    const result = await readFeed({
      from: this.lastSeq,
      fetchPage: fetchChanges,
      applyPage: (page) => {
        for (const entry of page.entries) {
          if (!entry.event) continue;
          for (const handler of this.local.get(entry.event) ?? []) handler(entry.eventPayload);
        }
        // The web build keeps its cursor in memory: the page is applied once its handlers ran.
        this.lastSeq = Math.max(this.lastSeq, page.cursor);
      },
    });
    if (result.kind === 'reset') {
      this.lastSeq = result.head;
      onResync?.();
    }
  }

  /** Joins a room now and after every reconnect; returns the leave function. */
  join(event: string, ...args: unknown[]): () => void {
    const key = JSON.stringify([event, ...args]);
    const entry: Join = [event, ...args];
    this.joins.set(key, entry);
    this.send(entry);
    return () => {
      this.joins.delete(key);
      if (event === 'joinChatBox') this.deps.connection.emit('joinChatBoxLeave', ...args);
    };
  }

  close(): void {
    this.timers.clearInterval(this.ping);
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.deps.connection.close();
  }

  private send([event, ...args]: Join): void {
    if (this.deps.connection.connected) this.deps.connection.emit(event, ...args);
  }

  private async recover(): Promise<void> {
    if (await this.deps.refresh()) this.deps.connection.reconnect();
    else this.deps.onSessionEnded();
  }
}
