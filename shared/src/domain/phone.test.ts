import { describe, expect, it } from 'vitest';
import {
  formatPhoneDisplay,
  maskBrazilianPhoneInput,
  SIGNUP_PHONE_MAX_DIGITS,
  unmaskPhone,
} from './phone.js';

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
