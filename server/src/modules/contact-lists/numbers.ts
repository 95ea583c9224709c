import { normalizePhoneNumber } from '@atende/shared';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** Brazil's 2-digit area codes (DDD) start and end with 1 to 9. */
const BR = /^55([1-9][1-9])(\d{8,9})$/;

/**
 * The one form a contact list keeps a number in (issue 16): digits only; a Brazilian number is
 * 55 + DDD + the local number, and an 8-digit mobile (starting 6 to 9) gets its 9th digit, so
 * `(11) 8765-4321`, `11987654321` and `+55 11 98765-4321` are one person. Landlines (starting 2
 * to 5) keep 8 digits. A number of another country is kept as its digits when it is a possible
 * number there. Anything else (no area code, a 9-digit local number that is not a mobile, junk)
 * is null.
 */
export function canonicalNumber(raw: string): string | null {
  const digits = normalizePhoneNumber(raw.replace(/^\s*00/, '+')).replace(/^0+/, '');
  const br = BR.exec(digits);
  if (br) {
    const [, ddd, local] = br as unknown as [string, string, string];
    if (local.length === 8) return /^[6-9]/.test(local) ? `55${ddd}9${local}` : `55${ddd}${local}`;
    return local.startsWith('9') ? digits : null;
  }
  if (digits.startsWith('55')) return null;
  if (digits.length < 10 || digits.length > 15) return null;
  return parsePhoneNumberFromString(`+${digits}`)?.isPossible() ? digits : null;
}
