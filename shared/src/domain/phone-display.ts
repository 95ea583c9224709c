/** Phone display and input masks (core §5, admin §5). */

const digitsOf = (value: string): string => value.replace(/\D/g, '');

/**
 * Display mask for a stored number: applies only to 12 or 13 digits starting with country
 * code 55 (`+55 (11) 9999-9999`, `+55 (11) 99999-9999`). Anything else is shown as stored.
 */
export function formatPhoneDisplay(number: string): string {
  const d = digitsOf(number);
  if (!d.startsWith('55') || (d.length !== 12 && d.length !== 13)) return number;
  const area = d.slice(2, 4);
  const local = d.slice(4);
  const split = local.length - 4;
  return `+55 (${area}) ${local.slice(0, split)}-${local.slice(split)}`;
}

/** The sign-up phone field keeps at most 11 digits: area code plus a 9-digit mobile. */
export const SIGNUP_PHONE_MAX_DIGITS = 11;

/**
 * Brazilian phone input mask, applied while typing: `(11) 9999-9999` for 10 digits and
 * `(11) 99999-9999` for 11. Extra digits are dropped.
 */
export function maskBrazilianPhoneInput(raw: string): string {
  const d = digitsOf(raw).slice(0, SIGNUP_PHONE_MAX_DIGITS);
  if (d.length === 0) return '';
  if (d.length <= 2) return `(${d}`;
  const area = d.slice(0, 2);
  const rest = d.slice(2);
  if (rest.length <= 4) return `(${area}) ${rest}`;
  const split = rest.length === 9 ? 5 : 4;
  return `(${area}) ${rest.slice(0, split)}-${rest.slice(split)}`;
}

/** The digits of a masked input, as sent to the server. */
export const unmaskPhone = digitsOf;
