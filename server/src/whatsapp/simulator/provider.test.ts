// Contract tests: the simulator, driven through its network like the control API does, honours
// every action and event of the provider port.
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PortEvent, PortMessage } from '../port.js';
import { newMessageId, SimNetwork, type SimInbound } from './network.js';
import { SimulatorProvider, type SimulatorProviderOptions } from './provider.js';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `t-sim-${randomBytes(4).toString('hex')}`;
let redis: Redis;
let subscriber: Redis;
let network: SimNetwork;
const wakes = new Map<string, Set<() => void>>();
const providers: SimulatorProvider[] = [];
let counter = 0;

beforeAll(async () => {
  redis = new Redis(url);
  subscriber = new Redis(url);
  network = new SimNetwork(redis, prefix);
  subscriber.on('message', (_c: string, id: string) => wakes.get(id)?.forEach((w) => w()));
  await subscriber.subscribe(network.wakeChannel);
});

afterEach(async () => {
  for (const p of providers.splice(0)) await p.stop();
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  subscriber.disconnect();
});

function device(options: Partial<SimulatorProviderOptions> = {}) {
  const connectionId = `c${++counter}`;
  const provider = new SimulatorProvider({
    connectionId,
    network,
    onWake: (id, wake) => {
      if (!wakes.has(id)) wakes.set(id, new Set());
      wakes.get(id)!.add(wake);
      return () => wakes.get(id)!.delete(wake);
    },
    reconnectPolicy: { baseDelayMs: 50, maxDelayMs: 200, jitterRatio: 0, random: () => 0.5 },
    pollMs: 100,
    reorderWindowMs: 150,
    ...options,
  });
  providers.push(provider);
  const events: PortEvent[] = [];
  for (const name of ['connection', 'message', 'ack', 'edit', 'revoke', 'reaction'] as const) {
    provider.events.on(name, (payload) => events.push({ name, payload } as PortEvent));
  }
  const statuses = () => events.flatMap((e) => (e.name === 'connection' ? [e.payload.status] : []));
  const messages = () =>
    events.flatMap((e) => (e.name === 'message' ? [e.payload as PortMessage] : []));
  return { provider, connectionId, events, statuses, messages };
}

async function until(check: () => boolean, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function connected(options: Partial<SimulatorProviderOptions> = {}) {
  const d = device(options);
  await d.provider.start();
  await network.scan(d.connectionId, '5511900000000');
  await until(() => d.provider.status() === 'CONNECTED');
  return d;
}

const inbound = (extra: Partial<SimInbound> = {}): SimInbound => ({
  id: newMessageId(),
  from: '5511988887777',
  body: 'olá',
  at: Date.now(),
  ...extra,
});

describe('simulator provider: lifecycle', () => {
  it('shows a QR code, connects after the scan through a 515 restart', async () => {
    const d = device();
    await d.provider.start();
    const qr = d.events.find((e) => e.name === 'connection' && e.payload.status === 'qrcode');
    expect(qr?.payload).toMatchObject({ retries: 1, qr: expect.stringMatching(/^2@sim-/) });
    await network.scan(d.connectionId, '5511912345678');
    await until(() => d.provider.status() === 'CONNECTED');
    expect(d.statuses()).toEqual(['OPENING', 'qrcode', 'OPENING', 'CONNECTED']);
    const open = d.events.at(-1)!;
    expect(open.payload).toMatchObject({ me: { phone: '5511912345678' } });
    const restart = d.events.find((e) => e.name === 'connection' && e.payload.reason === 515);
    expect(restart).toBeTruthy();
  });

  it('counts QR codes and gives up after the cap', async () => {
    const d = device({ qrIntervalMs: 20, maxQrCycles: 3 });
    await d.provider.start();
    await until(() => d.provider.status() === 'DISCONNECTED');
    const retries = d.events.flatMap((e) =>
      e.name === 'connection' && e.payload.status === 'qrcode' ? [e.payload.retries] : [],
    );
    expect(retries).toEqual([1, 2, 3]);
  });

  it('resumes without a QR code once linked; logout unlinks', async () => {
    const d = await connected();
    await d.provider.stop();
    expect(d.provider.status()).toBe('DISCONNECTED');
    await d.provider.start();
    expect(d.provider.status()).toBe('CONNECTED');
    await d.provider.logout();
    expect((await network.state(d.connectionId)).linked).toBe(false);
    await d.provider.start();
    expect(d.provider.status()).toBe('qrcode');
  });

  it('links by pairing code', async () => {
    const d = device();
    await d.provider.start({ pairingPhone: '5511912345678' });
    const pairing = d.events.find((e) => e.name === 'connection' && e.payload.status === 'PAIRING');
    expect(pairing?.payload).toMatchObject({ pairingCode: expect.stringMatching(/^[0-9A-F]{8}$/) });
    await network.scan(d.connectionId, '5511912345678');
    await until(() => d.provider.status() === 'CONNECTED');
  });

  it('reacts to close codes through the reconnect policy', async () => {
    const d = await connected();
    await network.drop(d.connectionId, 408);
    await until(() => d.statuses().includes('TIMEOUT'));
    await until(() => d.statuses().at(-1) === 'CONNECTED');

    await network.drop(d.connectionId, 440);
    await until(() => d.statuses().filter((s) => s === 'CONNECTED').length === 3);

    const lost = await connected({ checkOwnership: async () => false });
    await network.drop(lost.connectionId, 440);
    await until(() => lost.provider.status() === 'DISCONNECTED');
    expect((await network.state(lost.connectionId)).linked).toBe(true);

    await network.drop(d.connectionId, 403);
    await until(() => d.provider.status() === 'DISCONNECTED');
    expect((await network.state(d.connectionId)).linked).toBe(true);

    const unlinked = await connected();
    await network.drop(unlinked.connectionId, 401);
    await until(() => unlinked.provider.status() === 'DISCONNECTED');
    await new Promise((r) => setTimeout(r, 50));
    expect((await network.state(unlinked.connectionId)).linked).toBe(false);
  });
});

describe('simulator provider: inbound', () => {
  it('delivers text, replies, groups, LIDs and media that can be downloaded', async () => {
    const d = await connected();
    const bytes = Buffer.from('%PDF-1.4 fake');
    await network.inbound(d.connectionId, inbound({ name: 'Maria', body: 'oi' }));
    await network.inbound(d.connectionId, inbound({ quotedId: 'Q1', body: 'resposta' }));
    await network.inbound(d.connectionId, inbound({ group: { id: '1203630', subject: 'Loja' } }));
    await network.inbound(d.connectionId, inbound({ lid: '123456789' }));
    const media = inbound({
      body: 'nota',
      media: { mimetype: 'application/pdf', fileName: 'n.pdf', size: bytes.length, locator: 'L1' },
    });
    await network.inbound(d.connectionId, media, bytes);
    await until(() => d.messages().length === 5);
    const [text, reply, group, lid, doc] = d.messages() as [PortMessage, ...PortMessage[]];
    expect(text).toMatchObject({
      fromMe: false,
      type: 'chat',
      body: 'oi',
      pushName: 'Maria',
      chatId: '5511988887777@s.whatsapp.net',
      contact: { phone: '5511988887777' },
      isGroup: false,
      offline: false,
    });
    expect(reply!.quotedId).toBe('Q1');
    expect(group).toMatchObject({
      isGroup: true,
      chatId: '1203630@g.us',
      group: { id: '1203630@g.us', subject: 'Loja' },
      participant: { phone: '5511988887777' },
    });
    expect(lid).toMatchObject({ chatId: '123456789@lid', contact: { lid: '123456789' } });
    expect(doc).toMatchObject({ type: 'document', body: 'nota', media: { fileName: 'n.pdf' } });
    expect(Buffer.from(await d.provider.downloadMedia(doc!.media!))).toEqual(bytes);
  });

  it('holds messages while disconnected and delivers them as offline', async () => {
    const d = await connected();
    await d.provider.stop();
    const waiting = inbound({ body: 'enquanto offline' });
    await network.inbound(d.connectionId, waiting);
    await new Promise((r) => setTimeout(r, 5));
    await d.provider.start();
    await until(() => d.messages().length === 1);
    expect(d.messages()[0]).toMatchObject({ id: waiting.id, offline: true });
  });

  it('injects faults: duplicate, out of order, ciphertext first, replay on reconnect', async () => {
    const d = await connected();
    await network.setFaults(d.connectionId, { duplicate: true });
    const twice = inbound();
    await network.inbound(d.connectionId, twice);
    await until(() => d.messages().length === 2);
    expect(d.messages().map((m) => m.id)).toEqual([twice.id, twice.id]);

    await network.setFaults(d.connectionId, { duplicate: false, outOfOrder: true });
    const one = inbound({ body: '1' });
    const two = inbound({ body: '2' });
    await network.inbound(d.connectionId, one);
    await network.inbound(d.connectionId, two);
    await until(() => d.messages().length === 4);
    expect(
      d
        .messages()
        .slice(2)
        .map((m) => m.body),
    ).toEqual(['2', '1']);

    await network.setFaults(d.connectionId, { outOfOrder: false, ciphertextFirst: true });
    const secret = inbound({ body: 'segredo' });
    await network.inbound(d.connectionId, secret);
    await until(() => d.messages().length === 6);
    expect(
      d
        .messages()
        .slice(4)
        .map((m) => [m.id, m.type, m.body]),
    ).toEqual([
      [secret.id, 'ciphertext', ''],
      [secret.id, 'chat', 'segredo'],
    ]);

    await network.setFaults(d.connectionId, { ciphertextFirst: false, replayOnReconnect: true });
    const ref = (m: SimInbound) => ({
      chatId: '5511988887777@s.whatsapp.net',
      id: m.id,
      fromMe: false,
    });
    await d.provider.markRead([ref(twice), ref(one), ref(two)]);
    const before = d.messages().length;
    await network.drop(d.connectionId, 428);
    await until(() => d.statuses().filter((s) => s === 'CONNECTED').length === 2);
    await until(() => d.messages().length === before + 1);
    expect(d.messages().at(-1)).toMatchObject({ id: secret.id, offline: true });
    expect((await network.state(d.connectionId)).reads).toEqual([twice.id, one.id, two.id]);
  });
});

describe('simulator provider: actions', () => {
  it('records sends in order under our ids, echoes them and acks', async () => {
    const d = await connected();
    const id = 'OURID0001';
    const sent = await d.provider.sendText('5511988887777', 'bom dia', { messageId: id });
    expect(sent.ref).toEqual({ chatId: '5511988887777@s.whatsapp.net', id, fromMe: true });
    const dir = await mkdtemp(path.join(tmpdir(), 'sim-'));
    const file = path.join(dir, 'a.pdf');
    await writeFile(file, '%PDF-1.4');
    await d.provider.sendMedia('5511988887777', {
      kind: 'document',
      data: { path: file },
      mimetype: 'application/pdf',
      fileName: 'a.pdf',
      caption: 'segue',
    });
    await d.provider.sendMedia('5511988887777', {
      kind: 'audio',
      data: new Uint8Array([1, 2, 3]),
      mimetype: 'audio/ogg; codecs=opus',
      voiceNote: true,
    });
    await d.provider.sendLocation('5511988887777', {
      latitude: -23.5,
      longitude: -46.6,
      name: 'Loja',
    });
    await d.provider.sendContacts('5511988887777', [{ name: 'Ana', phone: '5511911112222' }]);
    await d.provider.sendContacts('5511988887777', [
      { name: 'Ana', phone: '5511911112222' },
      { name: 'Bia', phone: '5511933334444' },
    ]);
    await d.provider.sendText('5511988887777', 'respondendo', {
      quoted: { chatId: '5511988887777@s.whatsapp.net', id: 'THEIRS', fromMe: false },
    });
    const records = await network.outbound(d.connectionId);
    expect(records.map((r) => r.kind)).toEqual([
      'text',
      'media',
      'media',
      'location',
      'contacts',
      'contacts',
      'text',
    ]);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(records[0]).toMatchObject({ id, body: 'bom dia', ack: 1 });
    expect(records[1]!.media).toMatchObject({ fileName: 'a.pdf', caption: 'segue', size: 8 });
    expect(records[2]!.media).toMatchObject({ kind: 'audio', voiceNote: true, size: 3 });
    expect(records[6]!.quotedId).toBe('THEIRS');

    await until(() => d.messages().length === 7);
    const echoes = d.messages();
    expect(echoes.every((m) => m.fromMe)).toBe(true);
    expect(echoes.map((m) => m.type)).toEqual([
      'chat',
      'document',
      'audio',
      'locationMessage',
      'contactMessage',
      'vcard',
      'chat',
    ]);
    expect(echoes[0]!.id).toBe(id);
    const acks = d.events.filter((e) => e.name === 'ack');
    expect(acks).toHaveLength(7);
    expect(acks[0]!.payload).toMatchObject({ ack: 2, ref: { id, fromMe: true } });

    expect(await network.ack(d.connectionId, id, 3)).toBe(true);
    expect(await network.ack(d.connectionId, 'UNKNOWN', 3)).toBe(false);
    await until(() => d.events.some((e) => e.name === 'ack' && e.payload.ack === 3));
    expect((await network.outbound(d.connectionId))[0]!.ack).toBe(3);
  });

  it('edits, deletes, reacts, marks read, sets presence, checks numbers', async () => {
    const d = await connected();
    const target = { chatId: '5511988887777@s.whatsapp.net', id: 'M1', fromMe: true };
    await d.provider.editText(target, 'corrigido');
    await d.provider.deleteMessage(target);
    await d.provider.react({ ...target, fromMe: false }, '👍');
    await until(() => d.events.filter((e) => e.name !== 'connection').length === 3);
    const [edit, revoke, reaction] = d.events.filter((e) => e.name !== 'connection');
    expect(edit).toMatchObject({ name: 'edit', payload: { ref: target, body: 'corrigido' } });
    expect(revoke).toMatchObject({ name: 'revoke', payload: { ref: target } });
    expect(reaction).toMatchObject({ name: 'reaction', payload: { emoji: '👍', fromMe: true } });
    const kinds = (await network.outbound(d.connectionId)).map((r) => [r.kind, r.targetId]);
    expect(kinds).toEqual([
      ['edit', 'M1'],
      ['delete', 'M1'],
      ['react', 'M1'],
    ]);

    await d.provider.markRead([{ chatId: target.chatId, id: 'IN1', fromMe: false }]);
    await d.provider.setPresence('5511988887777', 'composing');
    const state = await network.state(d.connectionId);
    expect(state.reads).toEqual(['IN1']);
    expect(state.presence).toEqual({ '5511988887777@s.whatsapp.net': 'composing' });
    expect(await d.provider.checkNumber('+55 (11) 98888-7777')).toEqual({
      exists: true,
      chatId: '5511988887777@s.whatsapp.net',
      identities: { phone: '5511988887777' },
    });
    expect(await d.provider.checkNumber('123')).toEqual({ exists: false });
    expect(await d.provider.profilePicture('5511988887777')).toBeUndefined();
  });

  it('refuses to send while not connected', async () => {
    const d = device();
    await expect(d.provider.sendText('5511988887777', 'x')).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
    await d.provider.start();
    await expect(d.provider.sendText('5511988887777', 'x')).rejects.toMatchObject({
      code: 'ERR_WAPP_NOT_INITIALIZED',
    });
  });
});
