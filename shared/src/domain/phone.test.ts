import { describe, expect, it } from 'vitest';
import { DEFAULT_PHONE_COUNTRY, normalizePhoneNumber } from './phone.js';
import {
  formatPhoneDisplay,
  maskBrazilianPhoneInput,
  SIGNUP_PHONE_MAX_DIGITS,
  unmaskPhone,
} from './phone-display.js';

describe('formatPhoneDisplay (core §5: 12 or 13 digits with 55)', () => {
  it.each([
    ['551133334444', '+55 (11) 3333-4444'],
    ['5511987654321', '+55 (11) 98765-4321'],
    ['55 11 98765-4321', '+55 (11) 98765-4321'],
    ['55113333444', '55113333444'], // 11 digits: not masked
    ['55119876543210', '55119876543210'], // 14 digits
    ['4411987654321', '4411987654321'], // other country
    ['', ''],
  ])('%s → %s', (input, expected) => {
    expect(formatPhoneDisplay(input)).toBe(expected);
  });
});

describe('maskBrazilianPhoneInput (admin §5: max 11)', () => {
  it.each([
    ['', ''],
    ['1', '(1'],
    ['11', '(11'],
    ['119', '(11) 9'],
    ['113333', '(11) 3333'],
    ['1133334', '(11) 3333-4'],
    ['1133334444', '(11) 3333-4444'],
    ['11987654321', '(11) 98765-4321'],
    ['119876543210999', '(11) 98765-4321'],
    ['(11) 98765-4321', '(11) 98765-4321'],
  ])('%s → %s', (input, expected) => {
    expect(maskBrazilianPhoneInput(input)).toBe(expected);
  });

  it('keeps at most 11 digits', () => {
    expect(SIGNUP_PHONE_MAX_DIGITS).toBe(11);
    expect(unmaskPhone(maskBrazilianPhoneInput('1198765432199'))).toHaveLength(11);
  });
});

describe('normalizePhoneNumber (issue 13, item 7: default country Brazil)', () => {
  it.each([
    ['(11) 98888-7777', '5511988887777'],
    ['11988887777', '5511988887777'],
    ['11 3333-4444', '551133334444'],
    ['5511988887777', '5511988887777'],
    ['55 11 3333-4444', '551133334444'],
    ['+55 (11) 98888-7777', '5511988887777'],
    ['+1 415 555 2671', '14155552671'],
    // Ambiguous (also a Brazilian length): read as Brazilian; foreign numbers are typed with +.
    ['14155552671', '5514155552671'],
    ['351912345678', '351912345678'],
    ['', ''],
  ])('%s → %s', (raw, stored) => {
    expect(normalizePhoneNumber(raw)).toBe(stored);
  });

  it('uses the company country it is given', () => {
    expect(normalizePhoneNumber('912 345 678', 'PT')).toBe('351912345678');
    expect(DEFAULT_PHONE_COUNTRY).toBe('BR');
  });
});
