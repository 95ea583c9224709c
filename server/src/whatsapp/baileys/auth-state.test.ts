import {
  Curve,
  DEFAULT_CONNECTION_CONFIG,
  addTransactionCapability,
  generateSignalPubKey,
  makeCacheableSignalKeyStore,
  proto,
} from 'baileys';
import type { KeyPair } from 'baileys';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  AUTH_KEY_TYPES,
  MemoryAuthStore,
  decodeAuthValue,
  encodeAuthValue,
  loadAuthState,
  makeStoreKeys,
} from './auth-state.js';

const logger = pino({ level: 'silent' });
const ALICE = '5511900000001@s.whatsapp.net';
const BOB = '5511900000002@s.whatsapp.net';

/** Open a store the way a socket would: cached, transactional, through Baileys' repository. */
async function open(store: MemoryAuthStore) {
  const { state, saveCreds } = await loadAuthState(store);
  const keys = addTransactionCapability(makeCacheableSignalKeyStore(state.keys, logger), logger, {
    maxCommitRetries: 2,
    delayBetweenTriesMs: 1,
  });
  const repo = DEFAULT_CONNECTION_CONFIG.makeSignalRepository({ creds: state.creds, keys }, logger);
  return { state, keys, repo, saveCreds };
}

/** As a fresh process would: state decoded again from the stored text, no objects shared. */
const reload = (store: MemoryAuthStore) => open(store);

describe('auth state over an AuthStore', () => {
  it('two identities exchange messages through stores reloaded between every step', async () => {
    const aliceStore = new MemoryAuthStore();
    const bobStore = new MemoryAuthStore();
    await (await open(aliceStore)).saveCreds();
    const bobNew = await open(bobStore);
    await bobNew.saveCreds();
    const preKey: KeyPair = Curve.generateKeyPair();
    await bobNew.state.keys.set({ 'pre-key': { '7': preKey } });
    expect(bobStore.count('pre-key')).toBe(1);

    // Alice fetches Bob's bundle (as WhatsApp's server would hand it out) and encrypts.
    const bob = await reload(bobStore);
    const alice = await reload(aliceStore);
    const { signedPreKey, signedIdentityKey, registrationId } = bob.state.creds;
    await alice.repo.injectE2ESession({
      jid: BOB,
      session: {
        registrationId,
        identityKey: generateSignalPubKey(signedIdentityKey.public),
        signedPreKey: {
          keyId: signedPreKey.keyId,
          publicKey: generateSignalPubKey(signedPreKey.keyPair.public),
          signature: signedPreKey.signature,
        },
        preKey: { keyId: 7, publicKey: generateSignalPubKey(preKey.public) },
      },
    });
    const hello = Buffer.from('olá, Bob');
    const first = await alice.repo.encryptMessage({ jid: BOB, data: hello });
    expect(first.type).toBe('pkmsg');
    expect(aliceStore.count('session')).toBe(1);

    // Bob, in a fresh process, decrypts; his one-time pre-key is consumed.
    const bobAgain = await reload(bobStore);
    const plain = await bobAgain.repo.decryptMessage({ jid: ALICE, ...first });
    expect(Buffer.from(plain).toString()).toBe('olá, Bob');
    expect(bobStore.count('pre-key')).toBe(0);
    expect(bobStore.count('session')).toBe(1);
    expect(bobStore.count('identity-key')).toBe(1);

    // And answers over the established session, which Alice reads after her own reload.
    const reply = await (
      await reload(bobStore)
    ).repo.encryptMessage({ jid: ALICE, data: Buffer.from('oi, Alice') });
    expect(reply.type).toBe('msg');
    const answer = await (await reload(aliceStore)).repo.decryptMessage({ jid: BOB, ...reply });
    expect(Buffer.from(answer).toString()).toBe('oi, Alice');
  });

  it('keeps creds across reloads and creates them only for a new connection', async () => {
    const store = new MemoryAuthStore();
    const first = await loadAuthState(store);
    expect(await store.readCreds()).toBeNull();
    first.state.creds.me = { id: '5511900000001:3@s.whatsapp.net', name: 'Loja' };
    await first.saveCreds();
    const again = await loadAuthState(store.clone());
    expect(again.state.creds.me?.id).toBe('5511900000001:3@s.whatsapp.net');
    expect(Buffer.from(again.state.creds.noiseKey.private)).toEqual(
      Buffer.from(first.state.creds.noiseKey.private),
    );
    expect(again.state.creds.signedPreKey.signature).toBeInstanceOf(Uint8Array);
  });

  it('round-trips every key type, as Baileys types', async () => {
    const store = new MemoryAuthStore();
    const keys = makeStoreKeys(store);
    const pair = Curve.generateKeyPair();
    await keys.set({
      'pre-key': { '1': pair },
      session: { 'a.0': Buffer.from([1, 2, 3]) },
      'sender-key': { 'g::a::0': Buffer.from([4]) },
      'sender-key-memory': { 'g@g.us': { 'a@s.whatsapp.net': true } },
      'app-state-sync-key': {
        AAA: proto.Message.AppStateSyncKeyData.fromObject({
          keyData: Buffer.from([9, 9]),
          timestamp: 5,
        }),
      },
      'app-state-sync-version': {
        regular: { version: 3, hash: Buffer.alloc(4, 1), indexValueMap: {} },
      },
      'lid-mapping': { '5511900000001': '123456789', '123456789_reverse': '5511900000001' },
      'device-list': { '5511900000001': ['0', '3'] },
      tctoken: { 'a@s.whatsapp.net': { token: Buffer.from([7]), timestamp: '1' } },
      'identity-key': { 'a.0': Buffer.alloc(33, 5) },
    });
    expect(store.count()).toBe(AUTH_KEY_TYPES.length + 1);

    const reread = makeStoreKeys(store.clone());
    const { '1': pre } = await reread.get('pre-key', ['1', 'absent']);
    expect(Buffer.from(pre!.public)).toEqual(Buffer.from(pair.public));
    const { AAA: sync } = await reread.get('app-state-sync-key', ['AAA']);
    expect(sync).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync!.keyData!)).toEqual(Buffer.from([9, 9]));
    const { regular } = await reread.get('app-state-sync-version', ['regular']);
    expect(Buffer.isBuffer(regular!.hash)).toBe(true);
    expect(await reread.get('lid-mapping', ['5511900000001'])).toEqual({
      '5511900000001': '123456789',
    });
    expect(await reread.get('device-list', ['5511900000001'])).toEqual({
      '5511900000001': ['0', '3'],
    });
    const { 'a@s.whatsapp.net': tc } = await reread.get('tctoken', ['a@s.whatsapp.net']);
    expect(Buffer.isBuffer(tc!.token)).toBe(true);
    expect(await reread.get('pre-key', ['absent'])).toEqual({});
  });

  it('deletes rows given null and writes a batch all or nothing', async () => {
    const store = new MemoryAuthStore();
    const keys = makeStoreKeys(store);
    await keys.set({ session: { x: Buffer.from([1]), y: Buffer.from([2]) } });
    await keys.set({ session: { x: null } });
    expect(Object.keys(await keys.get('session', ['x', 'y']))).toEqual(['y']);

    store.failNextWrite = true;
    await expect(
      keys.set({ session: { z: Buffer.from([3]) }, 'pre-key': { '9': Curve.generateKeyPair() } }),
    ).rejects.toThrow(/injected/);
    expect(store.count()).toBe(1);
  });

  it('wipe removes the creds and every key', async () => {
    const store = new MemoryAuthStore();
    const { saveCreds, state } = await loadAuthState(store);
    await saveCreds();
    await state.keys.set({ session: { x: Buffer.from([1]) } });
    await state.keys.clear?.();
    expect(await store.readCreds()).toBeNull();
    expect(store.count()).toBe(0);
  });

  it('encodes buffers so they come back as buffers', () => {
    const text = encodeAuthValue({ b: Buffer.from([1, 2]) });
    expect(decodeAuthValue<{ b: Buffer }>(text).b).toEqual(Buffer.from([1, 2]));
  });
});
