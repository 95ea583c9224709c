import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '@atende/shared';
import type { Outbox } from '../core/outbox.js';
import { changeFromEvent } from '../core/protocol.js';
import type { SyncEngine } from '../core/sync-engine.js';

export type LinkStatus = 'connected' | 'disconnected';

/**
 * Main's socket to the server (websocket only, as the web build). It re-joins the ticket rooms
 * after every connect, so ticket and message events (which carry the feed number) reach it.
 */
export class RealtimeLink {
  readonly socket: Socket;
  private readonly eventListeners = new Set<(event: string, payload: unknown) => void>();
  private readonly statusListeners = new Set<(status: LinkStatus) => void>();

  constructor(url: string, getToken: () => string | null) {
    this.socket = io(url, {
      transports: ['websocket'],
      // The protocol version: a server speaking another one refuses with ERR_PROTOCOL_VERSION.
      auth: (cb) => cb({ token: getToken(), protocol: PROTOCOL_VERSION }),
      timeout: 18_000,
      reconnection: true,
      autoConnect: false,
    });
    this.socket.on('connect', () => {
      this.socket.emit('joinNotification', undefined, () => this.emitStatus('connected'));
    });
    this.socket.on('disconnect', () => this.emitStatus('disconnected'));
    this.socket.onAny((event: string, payload: unknown) => {
      for (const listener of this.eventListeners) listener(event, payload);
    });
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** Every event as the server named it (`company-{id}-{name}`). */
  onEvent(listener: (event: string, payload: unknown) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** 'connected' once the rooms are joined, so nothing sent after it is missed. */
  onStatus(listener: (status: LinkStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  connect(): void {
    if (!this.socket.connected) this.socket.connect();
  }

  disconnect(): void {
    this.socket.disconnect();
  }

  close(): void {
    this.socket.removeAllListeners();
    this.socket.disconnect();
    this.eventListeners.clear();
    this.statusListeners.clear();
  }

  private emitStatus(status: LinkStatus): void {
    for (const listener of this.statusListeners) listener(status);
  }
}

/** The name part of `company-{id}-{name}` for this company, or null. */
export function eventName(companyId: number, event: string): string | null {
  const prefix = `company-${companyId}-`;
  return event.startsWith(prefix) ? event.slice(prefix.length) : null;
}

/** How long to wait before trying the catch-up again when it failed on a live socket. */
export const CATCH_UP_RETRY_MS = 5000;

/**
 * Feeds the link into the sync engine and the outbox: numbered events in, a pull after every
 * (re)connect, and sends only once that catch-up is done, so a reply is checked against the
 * ticket as it is now (closed or reassigned meanwhile means held, not sent). Returns the
 * function that unhooks it all.
 */
export function wireSync(options: {
  link: RealtimeLink;
  companyId: number;
  engine: SyncEngine;
  outbox: Outbox;
  onError?: (error: unknown) => void;
  /** Runs after the cache has taken the event in (the renderer renders from the cache). */
  afterEvent?: (event: string, payload: unknown) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
}): () => void {
  const { link, companyId, engine, outbox } = options;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const report = (error: unknown) => options.onError?.(error);
  let generation = 0;
  const catchUp = async (mine: number): Promise<void> => {
    try {
      await engine.connected();
      if (mine === generation) outbox.setOnline(true);
    } catch (error) {
      report(error);
      if (mine === generation) setTimer(() => void catchUp(mine), CATCH_UP_RETRY_MS);
    }
  };
  const after = options.afterEvent ?? (() => undefined);
  const offEvent = link.onEvent((event, payload) => {
    const name = eventName(companyId, event);
    const change = name ? changeFromEvent(name, payload) : null;
    if (!change) return after(event, payload);
    engine
      .receive(change)
      .catch(report)
      .finally(() => after(event, payload));
  });
  const offStatus = link.onStatus((status) => {
    generation++;
    if (status === 'connected') {
      void catchUp(generation);
    } else {
      engine.disconnected();
      outbox.setOnline(false);
    }
  });
  return () => {
    generation++;
    offEvent();
    offStatus();
  };
}
