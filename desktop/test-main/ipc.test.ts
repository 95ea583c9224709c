import { describe, expect, it } from 'vitest';
import { INVOKE, type InvokeChannel } from '../src/preload/channels.js';
import { openCache } from '../src/main/cache/open.js';
import { SqliteStore } from '../src/main/cache/sqlite-store.js';
import { Outbox } from '../src/main/core/outbox.js';
import { createHandlers, type HandlerDeps } from '../src/main/ipc/handlers.js';
import { registerIpc, type IpcMainLike } from '../src/main/ipc/register.js';
import { ManualClock } from './support/clock.js';

type Listener = Parameters<IpcMainLike['handle']>[1];
const APP = { senderFrame: { url: 'app://atende/index.html' } };

function setup() {
  const calls: string[] = [];
  const db = openCache();
  const store = new SqliteStore(db);
  db.prepare(
    `INSERT INTO tickets (id, status, data) VALUES (1, 'open', '{"id":1,"status":"open"}')`,
  ).run();
  let n = 0;
  const outbox = new Outbox({
    store,
    clock: new ManualClock(),
    transport: {
      sendMessage: async () => {
        calls.push('send');
        throw new Error('offline');
      },
    },
    userId: () => 1,
    newClientId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  });
  const record =
    (name: string, value: unknown = undefined) =>
    (...args: unknown[]) => {
      calls.push(`${name}:${JSON.stringify(args)}`);
      return value;
    };
  const deps: HandlerDeps = {
    api: {
      send: async (req) => (calls.push(`api:${req.method} ${req.path}`), { status: 200, data: {} }),
    },
    db,
    outbox,
    outboxStore: store,
    realtime: {
      connect: record('connect'),
      emit: record('emit'),
      reconnect: record('reconnect'),
      close: record('close'),
    },
    notify: record('notify', true) as HandlerDeps['notify'],
    viewTicket: record('view'),
    openExternal: async (url) => void calls.push(`open:${url}`),
    serverOrigin: 'https://api.atende.test',
    prefs: {
      get: () => ({ autoLaunch: false, muted: false, groups: true }),
      set: record('prefs', {
        autoLaunch: true,
        muted: false,
        groups: true,
      }) as HandlerDeps['prefs']['set'],
    },
    appInfo: () => ({ version: '1.0.0', platform: 'linux' }),
  };
  const handlers = new Map<string, Listener>();
  registerIpc(
    { handle: (channel, listener) => void handlers.set(channel, listener) },
    createHandlers(deps),
  );
  const invoke = (channel: InvokeChannel, arg?: unknown, event: object = APP) =>
    Promise.resolve(handlers.get(channel)!(event, arg)) as Promise<any>;
  return { calls, invoke, handlers, store, db };
}

/** For every channel, arguments its schema must refuse. */
const INVALID: Record<InvokeChannel, unknown[]> = {
  [INVOKE.request]: [
    undefined,
    { method: 'GET', path: 'http://evil.test/x' },
    { method: 'GET', path: '//evil.test/x' },
    { method: 'GET', path: '/a/../../etc' },
    { method: 'TRACE', path: '/tickets' },
    { method: 'GET', path: '/tickets', extra: true },
    { method: 'POST', path: '/x', body: 'x'.repeat(1_000_001) },
  ],
  [INVOKE.realtimeConnect]: [{ x: 1 }, 'now'],
  [INVOKE.realtimeEmit]: [
    { event: '../x', args: [] },
    { event: 'joinTickets', args: [1, 2, 3, 4, 5] },
  ],
  [INVOKE.realtimeReconnect]: [42],
  [INVOKE.realtimeClose]: [[]],
  [INVOKE.notify]: [
    { title: 1, body: 'x' },
    { title: 'x', body: 'y'.repeat(1001) },
  ],
  [INVOKE.viewTicket]: [{ ticketId: -1, focused: true }, { ticketId: 1 }],
  [INVOKE.openExternal]: [{ url: 5 }, {}],
  [INVOKE.cacheTickets]: [{ status: 'weird' }, { limit: 10_000 }],
  [INVOKE.cacheMessages]: [{ ticketId: '1' }, { ticketId: 1, limit: 0 }],
  [INVOKE.cacheSearchMessages]: [{ text: 'x'.repeat(201) }, { text: 3 }],
  [INVOKE.cacheSearchContacts]: [{}],
  [INVOKE.cacheQuickMessages]: [{ prefix: 7 }],
  [INVOKE.cacheChats]: [{ limit: 0 }, { after: { id: 1 } }, { search: 'x' }],
  [INVOKE.cacheChatMessages]: [{}, { chatId: 0 }, { chatId: 1, before: -5 }, { chatId: '1' }],
  [INVOKE.outboxCompose]: [
    { ticketId: 1, body: '   ' },
    { ticketId: 1.5, body: 'x' },
    { ticketId: 1, body: 'x', clientId: 'mine' },
  ],
  [INVOKE.outboxList]: ['all'],
  [INVOKE.outboxConfirm]: [{ clientId: 'not-a-uuid' }],
  [INVOKE.outboxDiscard]: [{ clientId: "'; DROP TABLE outbox; --" }],
  [INVOKE.prefsGet]: [{ all: true }],
  [INVOKE.prefsSet]: [{ autoLaunch: 'yes' }, { theme: 'dark' }],
  [INVOKE.appInfo]: [null],
};

describe('IPC handlers', () => {
  it('every channel is registered', () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual(Object.values(INVOKE).sort());
  });

  it.each(Object.entries(INVALID))(
    '%s refuses invalid arguments and does nothing',
    async (channel, args) => {
      const { calls, invoke, store } = setup();
      for (const arg of args) {
        const answer = await invoke(channel as InvokeChannel, arg);
        expect(answer).toMatchObject({ ok: false, error: 'ERR_VALIDATION' });
      }
      expect(calls).toEqual([]);
      expect(store.listOutgoing()).toEqual([]);
    },
  );

  it('refuses calls from any page but the app', async () => {
    const { calls, invoke } = setup();
    for (const url of ['https://evil.test/', 'file:///etc/passwd', '']) {
      const answer = await invoke(
        INVOKE.request,
        { method: 'GET', path: '/tickets' },
        {
          senderFrame: { url },
        },
      );
      expect(answer).toEqual({ ok: false, error: 'ERR_FORBIDDEN_SENDER' });
    }
    expect(calls).toEqual([]);
  });

  it('valid calls reach their handler', async () => {
    const { calls, invoke, store } = setup();
    expect(
      await invoke(INVOKE.request, { method: 'GET', path: '/tickets', query: { status: 'open' } }),
    ).toEqual({
      ok: true,
      value: { status: 200, data: {} },
    });
    const composed = await invoke(INVOKE.outboxCompose, { ticketId: 1, body: 'olá' });
    expect(composed.ok).toBe(true);
    expect(store.listOutgoing()).toHaveLength(1);
    const page = await invoke(INVOKE.cacheMessages, { ticketId: 1 });
    expect(page.value).toEqual([expect.objectContaining({ body: 'olá', pending: true })]);
    expect(calls).toEqual(['api:GET /tickets']);
  });

  it('opens only allow-listed external links', async () => {
    const { calls, invoke } = setup();
    expect(await invoke(INVOKE.openExternal, { url: 'https://wa.me/5511999999999' })).toEqual({
      ok: true,
      value: true,
    });
    const refused = await invoke(INVOKE.openExternal, { url: 'https://evil.test/phish' });
    expect(refused).toEqual({ ok: false, error: 'ERR_EXTERNAL_NOT_ALLOWED' });
    expect(await invoke(INVOKE.openExternal, { url: 'file:///etc/passwd' })).toMatchObject({
      ok: false,
    });
    expect(calls).toEqual(['open:https://wa.me/5511999999999']);
  });
});
