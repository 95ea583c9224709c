import {
  Curve,
  DEFAULT_CONNECTION_CONFIG,
  addTransactionCapability,
  generateSignalPubKey,
  makeCacheableSignalKeyStore,
} from 'baileys';
import type { KeyPair } from 'baileys';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSource } from '../../db/data-source.js';
import { databaseUrl } from '../../../test/db-url.js';
import { dropDatabase, freshDatabase } from '../../../test/harness.js';
import { loadAuthState } from './auth-state.js';
import { PgAuthStore } from './pg-auth-store.js';

const logger = pino({ level: 'silent' });
const ALICE = '5511900000001@s.whatsapp.net';
const BOB = '5511900000002@s.whatsapp.net';

let database: string;
let ds: DataSource;
let aliceId: number;
let bobId: number;

beforeAll(async () => {
  database = await freshDatabase();
  ds = createDataSource(databaseUrl(database), 4);
  await ds.initialize();
  const [company] = await ds.query(`INSERT INTO companies (name) VALUES ('Auth') RETURNING id`);
  const insert = (name: string, token: string) =>
    ds.query(`INSERT INTO whatsapps ("companyId", name, token) VALUES ($1, $2, $3) RETURNING id`, [
      company.id,
      name,
      token,
    ]);
  [{ id: aliceId }] = await insert('Alice', 'a'.repeat(32));
  [{ id: bobId }] = await insert('Bob', 'b'.repeat(32));
});

afterAll(async () => {
  await ds?.destroy();
  if (database) await dropDatabase(database);
});

/** As a fresh process would open it: everything read again from the database. */
async function open(whatsappId: number) {
  const store = new PgAuthStore(ds, whatsappId);
  const { state, saveCreds } = await loadAuthState(store);
  const keys = addTransactionCapability(makeCacheableSignalKeyStore(state.keys, logger), logger, {
    maxCommitRetries: 2,
    delayBetweenTriesMs: 1,
  });
  const repo = DEFAULT_CONNECTION_CONFIG.makeSignalRepository({ creds: state.creds, keys }, logger);
  return { state, repo, saveCreds, store };
}

const count = async (whatsappId: number, type: string) => {
  const [row] = await ds.query(
    `SELECT count(*)::int AS n FROM whatsapp_auth_keys WHERE "whatsappId" = $1 AND type = $2`,
    [whatsappId, type],
  );
  return row.n as number;
};

describe('PgAuthStore', () => {
  it('two identities exchange messages through stores reloaded from Postgres', async () => {
    await (await open(aliceId)).saveCreds();
    const bobNew = await open(bobId);
    await bobNew.saveCreds();
    const preKey: KeyPair = Curve.generateKeyPair();
    await bobNew.state.keys.set({ 'pre-key': { '7': preKey } });
    expect(await count(bobId, 'pre-key')).toBe(1);

    const bob = await open(bobId);
    const alice = await open(aliceId);
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
    const first = await alice.repo.encryptMessage({ jid: BOB, data: Buffer.from('olá, Bob') });
    expect(first.type).toBe('pkmsg');
    expect(await count(aliceId, 'session')).toBe(1);

    const plain = await (await open(bobId)).repo.decryptMessage({ jid: ALICE, ...first });
    expect(Buffer.from(plain).toString()).toBe('olá, Bob');
    expect(await count(bobId, 'pre-key')).toBe(0);
    expect(await count(bobId, 'session')).toBe(1);

    const reply = await (
      await open(bobId)
    ).repo.encryptMessage({ jid: ALICE, data: Buffer.from('oi, Alice') });
    expect(reply.type).toBe('msg');
    const answer = await (await open(aliceId)).repo.decryptMessage({ jid: BOB, ...reply });
    expect(Buffer.from(answer).toString()).toBe('oi, Alice');
  });

  it('writes a batch in one transaction: a failing row leaves none of it', async () => {
    const store = new PgAuthStore(ds, aliceId);
    await store.writeKeys([{ type: 'tctoken', id: 'keep', value: '"1"' }]);
    await expect(
      store.writeKeys([
        { type: 'tctoken', id: 'new', value: '"2"' },
        // Longer than the keyId column: Postgres refuses, and the first row must go with it.
        { type: 'tctoken', id: 'x'.repeat(300), value: '"3"' },
      ]),
    ).rejects.toThrow();
    expect([...(await store.readKeys('tctoken', ['keep', 'new'])).keys()]).toEqual(['keep']);
    await store.writeKeys([{ type: 'tctoken', id: 'keep', value: null }]);
    expect((await store.readKeys('tctoken', ['keep'])).size).toBe(0);
  });

  it('wipe removes the creds and keys of one connection only', async () => {
    await new PgAuthStore(ds, aliceId).wipe();
    expect(await new PgAuthStore(ds, aliceId).readCreds()).toBeNull();
    expect(await count(aliceId, 'session')).toBe(0);
    expect(await new PgAuthStore(ds, bobId).readCreds()).not.toBeNull();
  });
});
