/** IPC channel names shared by preload and main (names only: preload bundles no validation). */

/** Renderer → main, `ipcRenderer.invoke`; answered `{ ok: true, value } | { ok: false, error }`. */
export const INVOKE = {
  request: 'api:request',
  realtimeConnect: 'realtime:connect',
  realtimeEmit: 'realtime:emit',
  realtimeReconnect: 'realtime:reconnect',
  realtimeClose: 'realtime:close',
  notify: 'notify',
  viewTicket: 'view:ticket',
  openExternal: 'shell:openExternal',
  cacheTickets: 'cache:tickets',
  cacheMessages: 'cache:messages',
  cacheSearchMessages: 'cache:searchMessages',
  cacheSearchContacts: 'cache:searchContacts',
  cacheQuickMessages: 'cache:quickMessages',
  cacheChats: 'cache:chats',
  cacheChatMessages: 'cache:chatMessages',
  outboxCompose: 'outbox:compose',
  outboxList: 'outbox:list',
  outboxConfirm: 'outbox:confirm',
  outboxDiscard: 'outbox:discard',
  prefsGet: 'prefs:get',
  prefsSet: 'prefs:set',
  appInfo: 'app:info',
} as const;

/** Main → renderer, `webContents.send`. */
export const PUSH = {
  realtimeEvent: 'realtime:event',
  realtimeStatus: 'realtime:status',
  realtimeError: 'realtime:error',
  syncApplied: 'sync:applied',
  outboxChanged: 'outbox:changed',
  outboxHeld: 'outbox:held',
  notificationClick: 'notification:click',
} as const;

export type InvokeChannel = (typeof INVOKE)[keyof typeof INVOKE];
export type PushChannel = (typeof PUSH)[keyof typeof PUSH];

export type IpcAnswer<T = unknown> =
  { ok: true; value: T } | { ok: false; error: string; issues?: string[] };
