import { describe, expect, it } from 'vitest';
import { isStrongPassword, RESET_PASSWORD_MIN_LENGTH, resetPasswordProblems } from './password.js';

describe('reset-password rule (secondary §5)', () => {
  it.each([
    ['Abcdefg1', true],
    ['Abcdef1', false], // 7 characters
    ['abcdefg1', false], // no uppercase
    ['ABCDEFG1', false], // no lowercase
    ['Abcdefgh', false], // no digit
    ['', false],
  ])('%s strong: %s', (pw, expected) => {
    expect(isStrongPassword(pw)).toBe(expected);
  });

  it.each([
    ['', '', 'required', 'required'],
    ['abc', 'abc', 'weak', null],
    ['Abcdefg1', 'Abcdefg2', null, 'mismatch'],
    ['Abcdefg1', 'Abcdefg1', null, null],
  ] as const)('problems(%s, %s)', (pw, confirm, a, b) => {
    expect(resetPasswordProblems(pw, confirm)).toEqual({ newPassword: a, confirmPassword: b });
  });

  it('minimum is 8', () => expect(RESET_PASSWORD_MIN_LENGTH).toBe(8));
});
