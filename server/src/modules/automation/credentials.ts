import { SECRET_MASK } from '@atende/shared';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box.js';
import { failure, ok, type Result, type Service } from './clients/result.js';

/**
 * Credentials of prompts and queue integrations at rest (issue 18): what a row stores is the
 * sealed value and its last 4 characters; the plain value exists only in the call that uses it.
 * The sealed value is bound to its company, owner kind and field, so it never opens as another
 * company's (or another field's) credential.
 */
export type CredentialOwnerKind = 'prompt' | 'integration';
export type CredentialField =
  'apiKey' | 'voiceKey' | 'serviceAccount' | 'webhookSecret' | 'typebotToken';

export interface CredentialOwner {
  companyId: number;
  kind: CredentialOwnerKind;
  field: CredentialField;
}

/** The two columns a row keeps for one credential. */
export interface StoredCredential {
  sealed: string;
  /** The last 4 characters of the value (or of its hint), '' for values under 12 characters. */
  last4: string;
}

/** What any client may see of a credential: whether it is set and its last 4 characters. */
export interface CredentialView {
  set: boolean;
  last4: string | null;
  /** `••••abcd`, or `••••` for a short value, or '' when unset. */
  masked: string;
}

export const credentialContext = (owner: CredentialOwner): string =>
  `atende:credential:v1:company=${owner.companyId}:${owner.kind}:${owner.field}`;

/** Values shorter than this show no characters at all (as settings secrets, `maskSecret`). */
const MIN_LENGTH_FOR_HINT = 12;

/**
 * Seals a credential for storage. `hint` is what the last 4 come from when the value itself is
 * not a good one to show (a service-account JSON: its `private_key_id`).
 */
export function storeCredential(
  box: SecretBox,
  owner: CredentialOwner,
  plain: string,
  hint: string = plain,
): StoredCredential {
  return {
    sealed: box.seal(plain, credentialContext(owner)),
    last4: hint.length >= MIN_LENGTH_FOR_HINT ? hint.slice(-4) : '',
  };
}

/**
 * The plain credential, for the one call that needs it. A value that does not open (the key
 * was rotated away, the row was copied from elsewhere) is CREDENTIALS_INVALID: the admin must
 * enter it again.
 */
export function loadCredential(
  box: SecretBox,
  owner: CredentialOwner,
  stored: Pick<StoredCredential, 'sealed'>,
  service: Service,
): Result<string> {
  try {
    return ok(box.open(stored.sealed, credentialContext(owner)));
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    return failure(
      service,
      'ERR_INTEGRATION_CREDENTIALS_INVALID',
      `the stored ${owner.field} cannot be read (${error.message}); enter it again`,
      [],
    );
  }
}

export function credentialView(stored: StoredCredential | null | undefined): CredentialView {
  if (!stored?.sealed) return { set: false, last4: null, masked: '' };
  return {
    set: true,
    last4: stored.last4 || null,
    masked: `${SECRET_MASK}${stored.last4}`,
  };
}
