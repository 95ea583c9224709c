import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

const box = new SecretBox('k'.repeat(32));

describe('SecretBox', () => {
  it('opens what it sealed, for the same purpose', () => {
    const sealed = box.seal('$aact_secret', 'billing-provider:asaas');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('secret');
    expect(box.open(sealed, 'billing-provider:asaas')).toBe('$aact_secret');
  });

  it('seals the same text differently each time (random IV)', () => {
    expect(box.seal('x', 'p')).not.toBe(box.seal('x', 'p'));
  });

  it('refuses another purpose, another key, a changed byte and garbage', () => {
    const sealed = box.seal('token', 'billing-provider:asaas');
    expect(() => box.open(sealed, 'billing-provider:static-pix')).toThrow();
    expect(() => new SecretBox('other'.repeat(8)).open(sealed, 'billing-provider:asaas')).toThrow();
    const [v, iv, body] = sealed.split('.') as [string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      box.open(`${v}.${iv}.${flipped.toString('base64url')}`, 'billing-provider:asaas'),
    ).toThrow();
    expect(() => box.open('plain text', 'billing-provider:asaas')).toThrow();
    expect(() => box.open('v1..', 'billing-provider:asaas')).toThrow();
  });

  it('derives its key from SECRETS_KEY, else from JWT_SECRET', () => {
    const a = SecretBox.fromConfig({ SECRETS_KEY: 's'.repeat(32), JWT_SECRET: 'j'.repeat(32) });
    const b = SecretBox.fromConfig({ SECRETS_KEY: undefined, JWT_SECRET: 'j'.repeat(32) });
    const sealed = a.seal('x', 'p');
    expect(
      SecretBox.fromConfig({ SECRETS_KEY: 's'.repeat(32), JWT_SECRET: 'other'.repeat(8) }).open(
        sealed,
        'p',
      ),
    ).toBe('x');
    expect(() => b.open(sealed, 'p')).toThrow();
    expect(new SecretBox('j'.repeat(32)).open(b.seal('y', 'p'), 'p')).toBe('y');
  });
});
