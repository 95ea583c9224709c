import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for credentials we must be able to use again (API keys, service
 * accounts, signing secrets): AES-256-GCM with a random 96-bit IV and a context string as
 * additional data, so a sealed value copied to another row, field or company does not open.
 *
 * Sealed form: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts); `keyId` names the key so
 * old values still open after a rotation (`previous` keys) and can be re-sealed.
 */
export interface SecretBox {
  seal(plain: string, context: string): string;
  /** The plain text, or throws `SecretBoxError` (wrong key, context or a damaged value). */
  open(sealed: string, context: string): string;
  /** Whether `sealed` is under the current key (false: re-seal it). */
  isCurrent(sealed: string): boolean;
}

/** Never carries the value or the key: only what went wrong. */
export class SecretBoxError extends Error {
  constructor(reason: 'malformed' | 'unknown key' | 'does not open') {
    super(`sealed secret ${reason}`);
    this.name = 'SecretBoxError';
  }
}

interface Key {
  id: string;
  bytes: Buffer;
}

const VERSION = 'v1';

/** A 256-bit key from any key material, and its short id (not secret: a hash of the key). */
function deriveKey(material: string): Key {
  const bytes = Buffer.from(hkdfSync('sha256', material, 'atende', 'atende:secret-box:v1', 32));
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes };
}

export function createSecretBox(current: string, previous: readonly string[] = []): SecretBox {
  const now = deriveKey(current);
  const keys = new Map<string, Key>([now, ...previous.map(deriveKey)].map((k) => [k.id, k]));
  keys.set(now.id, now);

  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', now.bytes, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
      return [VERSION, now.id, ...parts].join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretBoxError('malformed');
      const key = keys.get(parts[1]!);
      if (!key) throw new SecretBoxError('unknown key');
      const [iv, tag, data] = parts.slice(2).map((p) => Buffer.from(p, 'base64url')) as [
        Buffer,
        Buffer,
        Buffer,
      ];
      if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError('malformed');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key.bytes, iv);
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('does not open');
      }
    },
    isCurrent(sealed) {
      return sealed.split('.')[1] === now.id;
    },
  };
}

/**
 * The server's box: `SECRETS_KEY` (and `SECRETS_KEY_PREVIOUS` during a rotation), or, when it
 * is unset, a key derived from `JWT_SECRET` under another label (then rotating `JWT_SECRET`
 * makes stored credentials unreadable: set `SECRETS_KEY` in production).
 */
export function secretBoxFromConfig(config: {
  SECRETS_KEY?: string;
  SECRETS_KEY_PREVIOUS?: string[];
  JWT_SECRET: string;
}): SecretBox {
  const current = config.SECRETS_KEY ?? `jwt-derived:${config.JWT_SECRET}`;
  return createSecretBox(current, config.SECRETS_KEY_PREVIOUS ?? []);
}
