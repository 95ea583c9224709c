import { contextBridge, ipcRenderer } from 'electron';
import { INVOKE, PUSH, type IpcAnswer, type InvokeChannel, type PushChannel } from './channels.js';

/**
 * The desktop side of the renderer's Platform interface, and the desktop-only API (offline
 * cache, outbox, preferences), bridged to main over IPC. Nothing else crosses: no Node, no
 * ipcRenderer. Main validates every argument; this file only forwards.
 */

async function invoke<T>(channel: InvokeChannel, arg?: unknown): Promise<T> {
  const answer = (await ipcRenderer.invoke(channel, arg)) as IpcAnswer<T>;
  if (!answer.ok) throw new Error(answer.error);
  return answer.value;
}

function subscribe<T>(channel: PushChannel, handler: (payload: T) => void): () => void {
  const listener = (_event: unknown, payload: T) => handler(payload);
  ipcRenderer.on(channel, listener);
  return () => void ipcRenderer.removeListener(channel, listener);
}

type Handler = (payload: unknown) => void;
let connected = false;
subscribe<string>(PUSH.realtimeStatus, (status) => (connected = status === 'connected'));

function connectRealtime() {
  const cleanups: (() => void)[] = [];
  void invoke(INVOKE.realtimeConnect);
  return {
    on(event: string, handler: Handler) {
      const off = subscribe<{ event: string; payload: unknown }>(PUSH.realtimeEvent, (message) => {
        if (message.event === event) handler(message.payload);
      });
      cleanups.push(off);
      return off;
    },
    emit(event: string, ...args: unknown[]) {
      // Socket acknowledgements (functions) cannot cross IPC; the rooms are re-joined anyway.
      const data = args.filter((a) => typeof a !== 'function');
      void invoke(INVOKE.realtimeEmit, { event, args: data }).catch(() => undefined);
    },
    onStatus(handler: (status: 'connected' | 'disconnected') => void) {
      const off = subscribe(PUSH.realtimeStatus, handler);
      cleanups.push(off);
      return off;
    },
    onConnectError(handler: (error: { message: string }) => void) {
      const off = subscribe(PUSH.realtimeError, handler);
      cleanups.push(off);
      return off;
    },
    reconnect() {
      void invoke(INVOKE.realtimeReconnect);
    },
    close() {
      for (const off of cleanups.splice(0)) off();
    },
    get connected() {
      return connected;
    },
  };
}

const serverArg = process.argv.find((a) => a.startsWith('--atende-server='));
const serverUrl = serverArg ? serverArg.slice('--atende-server='.length) : '';

/** Media goes through main's cache (app://atende/__media/…); other server paths stay remote. */
function resolveUrl(path: string): string {
  if (/^(https?:|blob:|data:|app:)/.test(path)) return path;
  const media = /^\/media\/([^/?#]+)$/.exec(path);
  if (media) return `app://atende/__media/${media[1]}`;
  return `${serverUrl}${path}`;
}

const clickHandlers = new Map<string, () => void>();
subscribe<{ tag: string }>(PUSH.notificationClick, ({ tag }) => clickHandlers.get(tag)?.());

interface RequestArg {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  responseType?: 'json' | 'blob';
}

const platform = {
  kind: 'desktop' as const,
  async request(req: RequestArg) {
    // The session lives in main: the renderer's token is not needed (main sends its own).
    const { method, path, query, body, responseType } = req;
    const answer = await invoke<{ status: number; data: unknown; contentType?: string }>(
      INVOKE.request,
      { method, path, query, body, responseType },
    );
    if (responseType === 'blob' && answer.data instanceof Uint8Array) {
      return {
        status: answer.status,
        data: new Blob([new Uint8Array(answer.data)], { type: answer.contentType }),
      };
    }
    return answer;
  },
  connectRealtime,
  resolveUrl,
  // Internal chats as the cache holds them, for the chats page when the server is unreachable.
  offlineChats: {
    chats: (arg?: unknown) => invoke(INVOKE.cacheChats, arg ?? {}),
    messages: (arg: unknown) => invoke(INVOKE.cacheChatMessages, arg),
  },
  notify(n: { title: string; body: string; icon?: string; tag?: string; onClick?: () => void }) {
    const tag = n.tag ?? `n-${Date.now()}`;
    if (n.onClick) clickHandlers.set(tag, n.onClick);
    void invoke(INVOKE.notify, { title: n.title, body: n.body, tag }).catch(() => undefined);
    return true;
  },
};

const desktop = {
  tickets: (arg: unknown) => invoke(INVOKE.cacheTickets, arg ?? {}),
  messages: (arg: unknown) => invoke(INVOKE.cacheMessages, arg),
  searchMessages: (arg: unknown) => invoke(INVOKE.cacheSearchMessages, arg),
  searchContacts: (arg: unknown) => invoke(INVOKE.cacheSearchContacts, arg),
  quickMessages: (arg: unknown) => invoke(INVOKE.cacheQuickMessages, arg ?? {}),
  chats: (arg: unknown) => invoke(INVOKE.cacheChats, arg ?? {}),
  chatMessages: (arg: unknown) => invoke(INVOKE.cacheChatMessages, arg),
  compose: (arg: unknown) => invoke(INVOKE.outboxCompose, arg),
  outbox: () => invoke(INVOKE.outboxList),
  confirmHeld: (clientId: string) => invoke(INVOKE.outboxConfirm, { clientId }),
  discardHeld: (clientId: string) => invoke(INVOKE.outboxDiscard, { clientId }),
  viewTicket: (ticketId: number | null, focused: boolean) =>
    invoke(INVOKE.viewTicket, { ticketId, focused }),
  openExternal: (url: string) => invoke(INVOKE.openExternal, { url }),
  prefs: () => invoke(INVOKE.prefsGet),
  setPrefs: (patch: unknown) => invoke(INVOKE.prefsSet, patch),
  info: () => invoke(INVOKE.appInfo),
  onSyncApplied: (handler: (p: unknown) => void) => subscribe(PUSH.syncApplied, handler),
  onOutboxChanged: (handler: () => void) => subscribe(PUSH.outboxChanged, handler),
  onOutboxHeld: (handler: (entry: unknown) => void) => subscribe(PUSH.outboxHeld, handler),
  onNotificationClick: (handler: (p: unknown) => void) =>
    subscribe(PUSH.notificationClick, handler),
};

contextBridge.exposeInMainWorld('atendePlatform', platform);
contextBridge.exposeInMainWorld('atendeDesktop', desktop);
