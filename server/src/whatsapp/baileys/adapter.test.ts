import { makeWASocket, proto } from 'baileys';
import type { UserFacingSocketConfig, WAMessage } from 'baileys';
import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionEvent, PortEvents, PortMessage } from '../port.js';
import { BaileysProvider } from './adapter.js';
import type { BaileysSocket } from './adapter.js';
import { MemoryAuthStore, encodeAuthValue } from './auth-state.js';
import { DEFAULT_RECONNECT_POLICY } from './reconnect.js';

const DEAD_URL = 'ws://127.0.0.1:1';
const CUSTOMER = '5511988887777@s.whatsapp.net';

interface Tracked {
  sock: BaileysSocket;
  config: UserFacingSocketConfig;
  attached: string[];
  removed: string[];
  ends: number;
}

interface Timer {
  run: () => void;
  delayMs: number;
  cancelled: boolean;
}

// A port that accepts TCP and never answers: the socket stays "connecting" while a test
// drives it step by step (the dead URL closes it within milliseconds, on its own schedule).
let SILENT_URL = '';
const held: Socket[] = [];
const silent = createServer((conn) => held.push(conn));
beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  SILENT_URL = `ws://127.0.0.1:${address.port}`;
});
afterAll(() => {
  held.forEach((conn) => conn.destroy());
  silent.close();
});

const providers: BaileysProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.stop()));
});

interface SetupOptions {
  checkOwnership?: () => Promise<boolean>;
  lookup?: string;
  /** URLs for the first sockets, in order; later ones get the silent server. */
  urls?: string[];
}

function setup(options: SetupOptions = {}) {
  const urls = [...(options.urls ?? [])];
  const store = new MemoryAuthStore();
  const sockets: Tracked[] = [];
  const timers: Timer[] = [];
  const provider = new BaileysProvider({
    connectionId: 'conn-1',
    authStore: store,
    logger: pino({ level: 'silent' }),
    reconnectPolicy: { ...DEFAULT_RECONNECT_POLICY, random: () => 0.5 },
    socketConfig: { waWebSocketUrl: DEAD_URL, connectTimeoutMs: 20_000 },
    getMessage: async () => options.lookup,
    ...(options.checkOwnership && { checkOwnership: options.checkOwnership }),
    // The real makeWASocket, watched: which listeners it gets, which are removed, end calls.
    makeSocket: (config) => {
      const sock = makeWASocket({ ...config, waWebSocketUrl: urls.shift() ?? SILENT_URL });
      const t: Tracked = { sock, config, attached: [], removed: [], ends: 0 };
      const { on, removeAllListeners } = sock.ev;
      sock.ev.on = (event, listener) => (t.attached.push(event), on(event, listener));
      sock.ev.removeAllListeners = (event) => (t.removed.push(event), removeAllListeners(event));
      const end = sock.end;
      sock.end = (err) => ((t.ends += 1), end(err));
      sock.requestPairingCode = vi.fn(async () => 'ABCD1234');
      sockets.push(t);
      return sock;
    },
    schedule: (run, delayMs) => {
      const timer = { run, delayMs, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
  });
  providers.push(provider);
  const seen = {
    connection: [] as ConnectionEvent[],
    message: [] as PortMessage[],
    ack: [] as PortEvents['ack'][],
  };
  provider.events.on('connection', (e) => seen.connection.push(e));
  provider.events.on('message', (e) => seen.message.push(e));
  provider.events.on('ack', (e) => seen.ack.push(e));
  const pending = () => timers.filter((t) => !t.cancelled);
  /** Run the scheduled reconnect; by default wait for the socket it makes. */
  const fire = async (newSocket = true) => {
    const timer = pending().at(-1);
    if (!timer) throw new Error('no reconnect scheduled');
    const before = sockets.length;
    timer.cancelled = true;
    timer.run();
    if (newSocket) await vi.waitFor(() => expect(sockets.length).toBe(before + 1));
  };
  return { provider, store, sockets, timers, pending, fire, seen };
}

const text = (id: string, body: string): WAMessage =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid: CUSTOMER, fromMe: false, id },
    message: { conversation: body },
    messageTimestamp: 1_760_000_000,
  }) as WAMessage;

const close = (sock: BaileysSocket, statusCode: number) =>
  sock.ev.emit('connection.update', {
    connection: 'close',
    lastDisconnect: {
      error: Object.assign(new Error('closed'), { output: { statusCode } }),
      date: new Date(),
    },
  });

const live = (sockets: Tracked[]) => sockets.filter((t) => t.ends === 0);

describe('BaileysProvider over a real socket pointed at a dead URL', () => {
  it('configures the socket as the pitfalls require', async () => {
    const { provider, sockets } = setup({
      lookup: Buffer.from(proto.Message.encode({ conversation: 'x' }).finish()).toString('base64'),
    });
    await provider.start();
    const { config } = sockets[0]!;
    expect(config).toMatchObject({
      markOnlineOnConnect: false,
      syncFullHistory: false,
      waWebSocketUrl: DEAD_URL,
    });
    expect(config.shouldSyncHistoryMessage?.({})).toBe(false);
    expect(config.msgRetryCounterCache).toBeDefined();
    expect(await config.getMessage?.({ remoteJid: CUSTOMER, id: 'A', fromMe: true })).toEqual(
      proto.Message.fromObject({ conversation: 'x' }),
    );
  });

  it('turns socket events into port events (notify and append, qr, acks)', async () => {
    const { provider, sockets, seen } = setup({ urls: [DEAD_URL] });
    await provider.start();
    expect(seen.connection.map((e) => e.status)).toEqual(['OPENING']);
    // Emitted in the same tick as start returns, before the dead URL's refusal arrives.
    const { ev } = sockets[0]!.sock;
    ev.emit('messages.upsert', { messages: [text('M1', 'ao vivo')], type: 'notify' });
    ev.emit('messages.upsert', { messages: [text('M2', 'da fila offline')], type: 'append' });
    ev.emit('connection.update', { qr: 'QR-1' });
    ev.emit('messages.update', [
      { key: { remoteJid: CUSTOMER, id: 'OUT', fromMe: true }, update: { status: 3 } },
    ]);

    expect(seen.message.map((m) => [m.id, m.body, m.offline])).toEqual([
      ['M1', 'ao vivo', false],
      ['M2', 'da fila offline', true],
    ]);
    expect(seen.connection[1]).toMatchObject({ status: 'qrcode', qr: 'QR-1', retries: 1 });
    expect(seen.ack).toEqual([
      { connectionId: 'conn-1', ref: { chatId: CUSTOMER, id: 'OUT', fromMe: true }, ack: 3 },
    ]);
  });

  it('hands a message over where Baileys raises it, not when its event buffer lets it out', async () => {
    const { provider, sockets, seen } = setup({ urls: [DEAD_URL] });
    await provider.start();
    const { ev } = sockets[0]!.sock;
    // As Baileys does around every received node (processNodeWithBuffer, offline queue).
    ev.buffer();
    ev.emit('messages.upsert', { messages: [text('B1', 'da fila offline')], type: 'append' });
    expect(seen.message.map((m) => m.id)).toEqual(['B1']);
    ev.flush();
    expect(seen.message.map((m) => m.id)).toEqual(['B1']);
  });

  it('backs off after the dead URL refuses, and a reconnect leaves exactly one live socket', async () => {
    const { provider, sockets, seen, pending, fire } = setup({ urls: [DEAD_URL] });
    await provider.start();
    // The refused connection is a real close from Baileys (connection lost, 408).
    await vi.waitFor(() => expect(provider.status()).toBe('TIMEOUT'), { timeout: 5_000 });
    expect(seen.connection.at(-1)).toMatchObject({ status: 'TIMEOUT', reason: 408 });
    expect(pending().map((t) => t.delayMs)).toEqual([2_000]);

    await fire();
    expect(sockets).toHaveLength(2);
    close(sockets[1]!.sock, 515);
    expect(pending().at(-1)?.delayMs).toBe(0);
    await fire();
    expect(sockets).toHaveLength(3);

    // Every old socket lost every listener we attached, and was ended once.
    for (const old of sockets.slice(0, 2)) {
      expect(old.ends).toBe(1);
      expect(new Set(old.removed)).toEqual(new Set(old.attached));
    }
    expect(live(sockets).map((t) => t.sock)).toEqual([sockets[2]!.sock]);
    expect(provider.sockets).toEqual({ created: 3, ended: 2 });

    // An event on an old socket no longer reaches the port; the live one's does.
    sockets[0]!.sock.ev.emit('messages.upsert', { messages: [text('OLD', 'x')], type: 'notify' });
    sockets[2]!.sock.ev.emit('messages.upsert', { messages: [text('NEW', 'y')], type: 'notify' });
    expect(seen.message.map((m) => m.id)).toEqual(['NEW']);
  });

  it('401: stops, wipes the auth state and reports DISCONNECTED', async () => {
    const { provider, store, sockets, seen, pending } = setup();
    await store.writeCreds(encodeAuthValue({ registered: true }));
    await store.writeKeys([{ type: 'session', id: 'a.0', value: '"x"' }]);
    await provider.start();
    close(sockets[0]!.sock, 401);
    await vi.waitFor(async () => expect(await store.readCreds()).toBeNull());
    expect(store.count()).toBe(0);
    expect(seen.connection.at(-1)).toMatchObject({ status: 'DISCONNECTED', reason: 401 });
    expect(pending()).toEqual([]);
    expect(live(sockets)).toEqual([]);
  });

  it.each([403, 411])('%i: stops without wiping', async (code) => {
    const { provider, store, sockets, pending } = setup();
    await store.writeKeys([{ type: 'session', id: 'a.0', value: '"x"' }]);
    await provider.start();
    close(sockets[0]!.sock, code);
    expect(provider.status()).toBe('DISCONNECTED');
    expect(pending()).toEqual([]);
    expect(store.count()).toBe(1);
  });

  it('440: reconnects only while it still owns the session, and backs off when repeated', async () => {
    let owned = true;
    const { provider, sockets, pending, fire } = setup({ checkOwnership: async () => owned });
    await provider.start();
    close(sockets[0]!.sock, 440);
    expect(provider.status()).toBe('OPENING');
    expect(pending().at(-1)?.delayMs).toBe(0);
    await fire();
    await vi.waitFor(() => expect(sockets).toHaveLength(2));

    close(sockets[1]!.sock, 440);
    expect(pending().at(-1)?.delayMs).toBe(2_000);
    owned = false;
    await fire(false);
    await vi.waitFor(() => expect(provider.status()).toBe('DISCONNECTED'));
    expect(sockets).toHaveLength(2);
    expect(live(sockets)).toEqual([]);
  });

  it('gives up after 5 QR codes without a scan', async () => {
    const { provider, sockets, seen } = setup();
    await provider.start();
    for (let i = 1; i <= 6; i++) sockets[0]!.sock.ev.emit('connection.update', { qr: `QR-${i}` });
    await vi.waitFor(() => expect(provider.status()).toBe('DISCONNECTED'));
    expect(seen.connection.filter((e) => e.status === 'qrcode')).toHaveLength(5);
    expect(sockets[0]!.ends).toBe(1);
  });

  it('links by pairing code when a phone number is given', async () => {
    const { provider, sockets, seen } = setup();
    await provider.start({ pairingPhone: '5511900000000' });
    sockets[0]!.sock.ev.emit('connection.update', { qr: 'QR-1' });
    await vi.waitFor(() => expect(provider.status()).toBe('PAIRING'));
    expect(sockets[0]!.sock.requestPairingCode).toHaveBeenCalledWith('5511900000000');
    expect(seen.connection.at(-1)).toMatchObject({ status: 'PAIRING', pairingCode: 'ABCD1234' });
    expect(seen.connection.some((e) => e.status === 'qrcode')).toBe(false);
  });

  it('refuses to send while not connected', async () => {
    const { provider } = setup();
    await provider.start();
    await expect(provider.sendText('5511988887777', 'oi')).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
  });
});
