import type { Database } from 'better-sqlite3';
import { INVOKE } from '../../preload/channels.js';
import { chatMessagesPage, listChats } from '../cache/chats.js';
import { listTickets, findQuickMessages } from '../cache/entities.js';
import { messagesPage } from '../cache/messages.js';
import { searchContacts, searchMessages } from '../cache/search.js';
import type { Outbox } from '../core/outbox.js';
import type { OutboxStore } from '../core/types.js';
import { isAllowedExternal } from '../security.js';
import type { ApiRequest, ApiResponse } from '../net/session.js';
import type { Handlers } from './register.js';

export interface Prefs {
  autoLaunch: boolean;
  muted: boolean;
  groups: boolean;
}

export interface HandlerDeps {
  api: { send(req: ApiRequest): Promise<ApiResponse> };
  db: Database;
  outbox: Outbox;
  outboxStore: OutboxStore;
  realtime: {
    connect(): void;
    emit(event: string, args: unknown[]): void;
    reconnect(): void;
    close(): void;
  };
  notify(n: { title: string; body: string; tag?: string; icon?: string }): boolean;
  viewTicket(ticketId: number | null, focused: boolean): void;
  openExternal(url: string): Promise<void>;
  serverOrigin: string;
  prefs: { get(): Prefs; set(patch: Partial<Prefs>): Prefs };
  appInfo: () => { version: string; platform: string };
}

/** What each IPC channel does once its argument has been validated. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    [INVOKE.request]: (req) => deps.api.send(req),
    [INVOKE.realtimeConnect]: () => deps.realtime.connect(),
    [INVOKE.realtimeEmit]: ({ event, args }) => deps.realtime.emit(event, args),
    [INVOKE.realtimeReconnect]: () => deps.realtime.reconnect(),
    [INVOKE.realtimeClose]: () => deps.realtime.close(),
    [INVOKE.notify]: (n) => deps.notify(n),
    [INVOKE.viewTicket]: ({ ticketId, focused }) => deps.viewTicket(ticketId, focused),
    [INVOKE.openExternal]: async ({ url }) => {
      if (!isAllowedExternal(url, deps.serverOrigin)) throw new Error('ERR_EXTERNAL_NOT_ALLOWED');
      await deps.openExternal(url);
      return true;
    },
    [INVOKE.cacheTickets]: (options) => listTickets(deps.db, options),
    [INVOKE.cacheMessages]: ({ ticketId, ...options }) => messagesPage(deps.db, ticketId, options),
    [INVOKE.cacheSearchMessages]: ({ text, ...options }) => searchMessages(deps.db, text, options),
    [INVOKE.cacheSearchContacts]: ({ text, limit }) => searchContacts(deps.db, text, limit),
    [INVOKE.cacheQuickMessages]: ({ prefix }) => findQuickMessages(deps.db, prefix),
    [INVOKE.cacheChats]: (options) => listChats(deps.db, options),
    [INVOKE.cacheChatMessages]: ({ chatId, ...options }) =>
      chatMessagesPage(deps.db, chatId, options),
    [INVOKE.outboxCompose]: (input) => deps.outbox.compose(input),
    [INVOKE.outboxList]: () => deps.outboxStore.listOutgoing(),
    [INVOKE.outboxConfirm]: ({ clientId }) => deps.outbox.confirm(clientId),
    [INVOKE.outboxDiscard]: ({ clientId }) => deps.outbox.discard(clientId),
    [INVOKE.prefsGet]: () => deps.prefs.get(),
    [INVOKE.prefsSet]: (patch) => deps.prefs.set(patch),
    [INVOKE.appInfo]: () => deps.appInfo(),
  };
}
