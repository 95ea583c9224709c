// Secrets at rest (provider credentials, integration tokens): AES-256-GCM with a key derived by
// HKDF-SHA256 from SECRETS_KEY (or, when unset, from JWT_SECRET, which production already refuses
// to leave at its default). Each value is sealed for a `purpose` (the GCM associated data), so a
// ciphertext copied into another column or row does not open there.
//
// Format: `v1.<iv base64url>.<ciphertext+tag base64url>`. Opening checks the tag: a tampered or
// foreign value throws, it never yields garbage.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_INFO = 'atende secret-box v1';

export class SecretBox {
  private readonly key: Buffer;

  constructor(material: string) {
    this.key = Buffer.from(hkdfSync('sha256', material, 'atende', HKDF_INFO, 32));
  }

  static fromConfig(config: Pick<Config, 'SECRETS_KEY' | 'JWT_SECRET'>): SecretBox {
    return new SecretBox(config.SECRETS_KEY ?? config.JWT_SECRET);
  }

  /** Encrypts `plain` for `purpose` (for example `billing-provider:asaas`). */
  seal(plain: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** Decrypts a value sealed for the same `purpose`; throws when it was altered or is foreign. */
  open(sealed: string, purpose: string): string {
    const [version, ivText, bodyText] = sealed.split('.');
    if (version !== VERSION || !ivText || !bodyText) throw new Error('not a sealed secret');
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(body.subarray(0, body.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
