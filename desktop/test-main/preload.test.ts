import { beforeAll, describe, expect, it, vi } from 'vitest';
import { openCache } from '../src/main/cache/open.js';
import { SqliteStore } from '../src/main/cache/sqlite-store.js';
import { Outbox } from '../src/main/core/outbox.js';
import { createHandlers } from '../src/main/ipc/handlers.js';
import { registerIpc, type IpcMainLike } from '../src/main/ipc/register.js';
import { PUSH } from '../src/preload/channels.js';
import { ManualClock } from './support/clock.js';

/**
 * The preload bridge against main's real IPC handlers: what the page can call passes main's
 * schemas (a contract test of the two sides), and main's pushes reach the page's callbacks.
 * Electron's two objects are replaced by an in-process channel with structured cloning.
 */
const bridge = vi.hoisted(() => {
  process.argv.push('--atende-server=https://api.empresa.test');
  return {
    exposed: {} as Record<string, any>,
    handlers: new Map<string, Parameters<IpcMainLike['handle']>[1]>(),
    listeners: new Map<string, Set<(event: unknown, payload: unknown) => void>>(),
  };
});

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => void (bridge.exposed[key] = value),
  },
  ipcRenderer: {
    invoke: async (channel: string, arg: unknown) =>
      bridge.handlers.get(channel)!(
        { senderFrame: { url: 'app://atende/index.html' } },
        structuredClone(arg),
      ),
    on: (channel: string, listener: (event: unknown, payload: unknown) => void) => {
      if (!bridge.listeners.has(channel)) bridge.listeners.set(channel, new Set());
      bridge.listeners.get(channel)!.add(listener);
    },
    removeListener: (channel: string, listener: (event: unknown, payload: unknown) => void) =>
      void bridge.listeners.get(channel)?.delete(listener),
  },
}));

const push = (channel: string, payload: unknown) => {
  for (const l of bridge.listeners.get(channel) ?? []) l({}, structuredClone(payload));
};
const calls: string[] = [];

beforeAll(async () => {
  const db = openCache();
  db.prepare(
    `INSERT INTO tickets (id, status, data) VALUES (1, 'open', '{"id":1,"status":"open"}')`,
  ).run();
  const store = new SqliteStore(db);
  const outbox = new Outbox({
    store,
    clock: new ManualClock(),
    transport: { sendMessage: async () => Promise.reject(new Error('offline')) },
    userId: () => 1,
    newClientId: () => '00000000-0000-4000-8000-000000000001',
  });
  registerIpc(
    { handle: (channel, listener) => void bridge.handlers.set(channel, listener) },
    createHandlers({
      api: {
        send: async (req) => (
          calls.push(`api ${JSON.stringify(req)}`),
          { status: 200, data: { ok: 1 } }
        ),
      },
      db,
      outbox,
      outboxStore: store,
      realtime: {
        connect: () => void calls.push('connect'),
        emit: (event, args) => void calls.push(`emit ${event} ${JSON.stringify(args)}`),
        reconnect: () => void calls.push('reconnect'),
        close: () => undefined,
      },
      notify: (n) => (calls.push(`notify ${n.tag}`), true),
      viewTicket: (id, focused) => void calls.push(`view ${id} ${focused}`),
      openExternal: async () => undefined,
      serverOrigin: 'https://api.empresa.test',
      prefs: {
        get: () => ({ autoLaunch: false, muted: false, groups: true }),
        set: (p) => ({ autoLaunch: false, muted: false, groups: true, ...p }),
      },
      appInfo: () => ({ version: '1.2.3', platform: 'linux' }),
    }),
  );
  await import('../src/preload/index.js');
});

describe('preload bridge', () => {
  it('exposes the platform and the desktop API, nothing else', () => {
    expect(Object.keys(bridge.exposed).sort()).toEqual(['atendeDesktop', 'atendePlatform']);
    expect(bridge.exposed.atendePlatform.kind).toBe('desktop');
  });

  it('requests pass main’s schema; the renderer’s token and signal stay behind', async () => {
    const platform = bridge.exposed.atendePlatform;
    const answer = await platform.request({
      method: 'GET',
      path: '/tickets',
      query: { status: 'open', pageNumber: 1, showAll: false, tags: undefined },
      token: 'renderer-token',
      signal: new AbortController().signal,
    });
    expect(answer).toEqual({ status: 200, data: { ok: 1 } });
    expect(calls.pop()).not.toContain('renderer-token');
  });

  it('the realtime connection forwards emits without acknowledgement functions', async () => {
    const connection = bridge.exposed.atendePlatform.connectRealtime({ getToken: () => null });
    const seen: unknown[] = [];
    connection.on('company-1-ticket', (p: unknown) => seen.push(p));
    connection.emit('joinTickets', 'open', () => undefined);
    push(PUSH.realtimeEvent, { event: 'company-1-ticket', payload: { seq: 4 } });
    push(PUSH.realtimeEvent, { event: 'company-1-tag', payload: { seq: 5 } });
    push(PUSH.realtimeStatus, 'connected');
    await vi.waitFor(() => expect(calls).toContain('emit joinTickets ["open"]'));
    expect(seen).toEqual([{ seq: 4 }]);
    expect(connection.connected).toBe(true);
    connection.close();
    push(PUSH.realtimeEvent, { event: 'company-1-ticket', payload: { seq: 6 } });
    expect(seen).toHaveLength(1);
  });

  it('a notification click comes back to the page’s callback', async () => {
    let clicked = 0;
    expect(
      bridge.exposed.atendePlatform.notify({
        title: 'Ana',
        body: 'oi',
        tag: 't-1',
        onClick: () => clicked++,
      }),
    ).toBe(true);
    await vi.waitFor(() => expect(calls).toContain('notify t-1'));
    push(PUSH.notificationClick, { tag: 't-1', ticketId: 1 });
    expect(clicked).toBe(1);
  });

  it('maps media through main’s cache and other paths to the server', () => {
    const { resolveUrl } = bridge.exposed.atendePlatform;
    expect(resolveUrl('/media/AbC.jpg')).toBe('app://atende/__media/AbC.jpg');
    expect(resolveUrl('/public/logo.png')).toBe('https://api.empresa.test/public/logo.png');
    expect(resolveUrl('https://cdn.test/x.png')).toBe('https://cdn.test/x.png');
  });

  it('the offline cache and the outbox through the desktop API', async () => {
    const desktop = bridge.exposed.atendeDesktop;
    await desktop.compose({ ticketId: 1, body: 'sem rede' });
    expect(await desktop.messages({ ticketId: 1 })).toEqual([
      expect.objectContaining({ body: 'sem rede', pending: true }),
    ]);
    expect(await desktop.outbox()).toEqual([expect.objectContaining({ state: 'pending' })]);
    expect(await desktop.tickets()).toEqual([expect.objectContaining({ id: 1 })]);
    expect(await desktop.searchMessages({ text: 'rede' })).toHaveLength(1);
    expect(await desktop.quickMessages()).toEqual([]);
    expect(await desktop.chats()).toEqual([]);
    expect(await desktop.chatMessages({ chatId: 1 })).toEqual([]);
    // The chats page reads the same cache through the platform when the server is unreachable.
    const { offlineChats } = bridge.exposed.atendePlatform;
    expect(await offlineChats.chats({ limit: 5 })).toEqual([]);
    await expect(offlineChats.messages({ chatId: 'x' })).rejects.toThrow('ERR_VALIDATION');
    expect(await desktop.info()).toEqual({ version: '1.2.3', platform: 'linux' });
    await expect(desktop.confirmHeld('not-a-uuid')).rejects.toThrow('ERR_VALIDATION');
    await expect(desktop.compose({ ticketId: 1, body: '  ' })).rejects.toThrow('ERR_VALIDATION');
  });
});
