import type { Database } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { PUSH, type PushChannel } from '../preload/channels.js';
import { getTicket, listTickets, replaceQuickMessages } from './cache/entities.js';
import { SqliteStore } from './cache/sqlite-store.js';
import {
  planNotifications,
  unreadCount,
  type NotificationPlan,
  type NotifyContext,
} from './core/notification-policy.js';
import { Outbox } from './core/outbox.js';
import { SyncEngine } from './core/sync-engine.js';
import { systemClock, type Clock, type EntityData } from './core/types.js';
import type { Prefs } from './ipc/handlers.js';
import { RealtimeLink, wireSync } from './net/realtime.js';
import type { ApiSession, SessionUser } from './net/session.js';
import { httpMessageTransport, httpSyncTransport } from './core/transports.js';

/** Tickets the tray count looks at: the open and pending ones are where unread messages are. */
const TRAY_SCAN_LIMIT = 1000;

export interface SyncServiceDeps {
  session: ApiSession;
  db: Database;
  user: SessionUser;
  push(channel: PushChannel, payload: unknown): void;
  showNotification(plan: NotificationPlan): void;
  setUnread(count: number): void;
  prefs(): Prefs;
  view(): { ticketId: number | null; focused: boolean };
  onError?(error: unknown): void;
  clock?: Clock;
}

export interface SyncService {
  readonly engine: SyncEngine;
  readonly outbox: Outbox;
  readonly store: SqliteStore;
  readonly link: RealtimeLink;
  stop(): void;
}

/**
 * One signed-in agent's desktop sync: cache, feed engine, outbox and socket wired together;
 * events reach the renderer after the cache has them; applied changes drive notifications and
 * the tray count. No Electron here: the shell passes in how to notify and what is on screen.
 */
export function startSyncService(deps: SyncServiceDeps): SyncService {
  const clock = deps.clock ?? systemClock;
  const report = (error: unknown) => deps.onError?.(error);
  const store = new SqliteStore(deps.db);
  const context = (): NotifyContext => {
    const prefs = deps.prefs();
    const view = deps.view();
    return {
      userId: deps.user.id,
      queueIds: (deps.user.queues ?? []).map((q) => q.id),
      windowFocused: view.focused,
      viewingTicketId: view.ticketId,
      muted: prefs.muted,
      groups: prefs.groups,
    };
  };
  const refreshUnread = () => {
    const tickets = [
      ...listTickets(deps.db, { status: 'open', limit: TRAY_SCAN_LIMIT }),
      ...listTickets(deps.db, { status: 'pending', limit: TRAY_SCAN_LIMIT }),
    ];
    deps.setUnread(unreadCount(tickets, context()));
  };
  const engine = new SyncEngine({
    store,
    transport: httpSyncTransport(deps.session),
    clock,
    onError: report,
    onApplied: (ops, source) => {
      const plans = planNotifications(ops, source, (id) => getTicket(deps.db, id), context());
      for (const plan of plans) deps.showNotification(plan);
      refreshUnread();
      deps.push(PUSH.syncApplied, { source, entities: [...new Set(ops.map((o) => o.entity))] });
    },
  });
  const outbox = new Outbox({
    store,
    transport: httpMessageTransport(deps.session),
    clock,
    userId: () => deps.user.id,
    newClientId: randomUUID,
    onHeld: (entry) => deps.push(PUSH.outboxHeld, entry),
    onChanged: () => deps.push(PUSH.outboxChanged, null),
  });
  const link = new RealtimeLink(deps.session.baseUrl, () => deps.session.token);
  // Quick messages are not in the change feed: the list is read again on every connect and
  // whenever the server says it changed.
  const refreshQuickMessages = async () => {
    const answer = await deps.session.call<EntityData[]>({
      method: 'GET',
      path: '/quick-messages/list',
    });
    if (answer.status === 200 && Array.isArray(answer.data)) {
      replaceQuickMessages(deps.db, answer.data);
    }
  };
  const quickMessageEvent = `company-${deps.user.companyId}-quickmessage`;
  const offQuick = link.onEvent((event) => {
    if (event === quickMessageEvent) refreshQuickMessages().catch(report);
  });
  const offStatus = link.onStatus((status) => {
    deps.push(PUSH.realtimeStatus, status);
    if (status === 'connected') refreshQuickMessages().catch(report);
  });
  // A refused handshake (token expired, or none yet after an offline start) is not retried by
  // socket.io: refresh the session and connect again, backing off while the network is down.
  let refusals = 0;
  let retry: unknown = null;
  const offError = (() => {
    const listener = (error: Error) => {
      deps.push(PUSH.realtimeError, { message: error.message });
      // Another protocol version: no new token helps (the renderer tells the user to update).
      if (error.message === 'ERR_PROTOCOL_VERSION') return;
      if (retry !== null) return;
      const delay = Math.min(60_000, 1000 * 2 ** Math.min(refusals++, 6));
      retry = clock.setTimeout(() => {
        retry = null;
        void deps.session.refresh().then(
          () => link.connect(),
          () => link.connect(),
        );
      }, delay);
    };
    link.socket.on('connect_error', listener);
    const connected = () => void (refusals = 0);
    link.socket.on('connect', connected);
    return () => {
      link.socket.off('connect_error', listener);
      link.socket.off('connect', connected);
      if (retry !== null) clock.clearTimeout(retry);
    };
  })();
  const unwire = wireSync({
    link,
    companyId: deps.user.companyId,
    engine,
    outbox,
    onError: report,
    afterEvent: (event, payload) => deps.push(PUSH.realtimeEvent, { event, payload }),
  });
  void engine.start().then(() => {
    refreshUnread();
    link.connect();
  }, report);
  return {
    engine,
    outbox,
    store,
    link,
    stop() {
      unwire();
      offStatus();
      offQuick();
      offError();
      outbox.setOnline(false);
      link.close();
    },
  };
}
