import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

// The display and input masks live in phone-display.ts: no phone-number library in them, so a
// page that only shows numbers does not load one.
const digitsOf = (value: string): string => value.replace(/\D/g, '');

/** A company's default country for numbers typed or imported without a country code. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'BR';

/**
 * The digits to store for a typed or imported number (issue 13, item 7): a number without a
 * country code gets the company's country (`(11) 98888-7777` → `5511988887777`); one that already
 * has it, or starts with `+`, keeps its own. Decided by libphonenumber's numbering plans, not by
 * counting digits. Anything it cannot read is kept as its digits.
 */
export function normalizePhoneNumber(
  raw: string,
  country: CountryCode = DEFAULT_PHONE_COUNTRY,
): string {
  const digits = digitsOf(raw);
  if (!digits) return digits;
  if (raw.trim().startsWith('+')) return digits;
  const national = parsePhoneNumberFromString(digits, country);
  if (national?.isValid()) return digitsOf(national.number);
  const international = parsePhoneNumberFromString(`+${digits}`);
  if (international?.isPossible()) return digits;
  return national?.isPossible() ? digitsOf(national.number) : digits;
}
