import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createSecretBox, secretBoxFromConfig, SecretBoxError } from '../../src/lib/secret-box.js';
import {
  credentialView,
  loadCredential,
  storeCredential,
  type CredentialOwner,
} from '../../src/modules/automation/credentials.js';

const KEY_MATERIAL = 'k'.repeat(40);
const box = createSecretBox(KEY_MATERIAL);
const apiKey = 'sk-live-51b7e2c9d4a84f0e9b3c6a1d7e2f4b8a';
const ownerA: CredentialOwner = { companyId: 1, kind: 'prompt', field: 'apiKey' };

describe('credentials at rest', () => {
  it('sealed with a random IV, the plain value nowhere in what is stored; opens for its owner', () => {
    const one = storeCredential(box, ownerA, apiKey);
    const two = storeCredential(box, ownerA, apiKey);
    expect(one.sealed).not.toBe(two.sealed);
    expect(one.sealed).not.toContain(apiKey);
    expect(one.sealed).not.toContain(Buffer.from(apiKey).toString('base64').slice(0, 12));
    expect(one.sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(one.last4).toBe('4b8a');
    expect(loadCredential(box, ownerA, one, 'openai')).toEqual({ ok: true, value: apiKey });
  });

  it('another company, owner kind or field cannot open it; the failure names no value', () => {
    const stored = storeCredential(box, ownerA, apiKey);
    for (const other of [
      { ...ownerA, companyId: 2 },
      { ...ownerA, kind: 'integration' as const },
      { ...ownerA, field: 'voiceKey' as const },
    ]) {
      const result = loadCredential(box, other, stored, 'openai');
      expect(result).toMatchObject({ ok: false, code: 'ERR_INTEGRATION_CREDENTIALS_INVALID' });
      expect(JSON.stringify(result)).not.toContain(apiKey);
      expect(JSON.stringify(result)).not.toContain(stored.sealed);
    }
  });

  it('a damaged value or another server key does not open', () => {
    const stored = storeCredential(box, ownerA, apiKey);
    const parts = stored.sealed.split('.');
    const flipped = parts[4]!.startsWith('A') ? `B${parts[4]!.slice(1)}` : `A${parts[4]!.slice(1)}`;
    expect(() =>
      box.open(
        [...parts.slice(0, 4), flipped].join('.'),
        'atende:credential:v1:company=1:prompt:apiKey',
      ),
    ).toThrow(SecretBoxError);
    expect(() => box.open('v1.x.y', 'c')).toThrow('sealed secret malformed');
    expect(() =>
      createSecretBox('z'.repeat(40)).open(
        stored.sealed,
        'atende:credential:v1:company=1:prompt:apiKey',
      ),
    ).toThrow('sealed secret unknown key');
  });

  it('rotation: the previous key still opens old values, which report themselves as not current', () => {
    const stored = storeCredential(box, ownerA, apiKey);
    const rotated = createSecretBox('n'.repeat(40), [KEY_MATERIAL]);
    expect(loadCredential(rotated, ownerA, stored, 'openai')).toEqual({ ok: true, value: apiKey });
    expect(rotated.isCurrent(stored.sealed)).toBe(false);
    expect(rotated.isCurrent(storeCredential(rotated, ownerA, apiKey).sealed)).toBe(true);
  });

  it('what clients see: set and last 4 only; short values show no characters', () => {
    expect(credentialView(storeCredential(box, ownerA, apiKey))).toEqual({
      set: true,
      last4: '4b8a',
      masked: '••••4b8a',
    });
    expect(credentialView(storeCredential(box, ownerA, 'short-key'))).toEqual({
      set: true,
      last4: null,
      masked: '••••',
    });
    expect(credentialView(null)).toEqual({ set: false, last4: null, masked: '' });
    // A service account shows the end of its key id, not of its JSON.
    const json = JSON.stringify({ private_key_id: '0123456789abcdef9f3e', private_key: '...' });
    expect(
      storeCredential(
        box,
        { ...ownerA, kind: 'integration', field: 'serviceAccount' },
        json,
        '0123456789abcdef9f3e',
      ).last4,
    ).toBe('9f3e');
  });

  it('config: SECRETS_KEY at least 32 characters; previous keys comma-separated; unset derives from JWT_SECRET', () => {
    expect(() => loadConfig({ SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY/);
    const config = loadConfig({
      SECRETS_KEY: 'a'.repeat(32),
      SECRETS_KEY_PREVIOUS: `${'b'.repeat(32)}, ${'c'.repeat(40)}`,
    });
    expect(config.SECRETS_KEY_PREVIOUS).toEqual(['b'.repeat(32), 'c'.repeat(40)]);
    const derived = secretBoxFromConfig(loadConfig({ JWT_SECRET: 'j'.repeat(32) }));
    const sealed = derived.seal('x', 'ctx');
    expect(
      secretBoxFromConfig(loadConfig({ JWT_SECRET: 'j'.repeat(32) })).open(sealed, 'ctx'),
    ).toBe('x');
    expect(() =>
      secretBoxFromConfig(loadConfig({ JWT_SECRET: 'k'.repeat(32) })).open(sealed, 'ctx'),
    ).toThrow(SecretBoxError);
  });
});
