/** The reset-password rule (secondary §5, §9). */
export const RESET_PASSWORD_MIN_LENGTH = 8;

export type ResetPasswordProblem = 'required' | 'weak' | 'mismatch';

/** At least 8 characters with a digit, a lowercase and an uppercase letter. */
export const isStrongPassword = (password: string): boolean =>
  password.length >= RESET_PASSWORD_MIN_LENGTH &&
  /\d/.test(password) &&
  /[a-z]/.test(password) &&
  /[A-Z]/.test(password);

/** Problems of the new password and of its confirmation (null means valid). */
export function resetPasswordProblems(
  newPassword: string,
  confirmPassword: string,
): { newPassword: ResetPasswordProblem | null; confirmPassword: ResetPasswordProblem | null } {
  return {
    newPassword: !newPassword ? 'required' : isStrongPassword(newPassword) ? null : 'weak',
    confirmPassword: !confirmPassword
      ? 'required'
      : confirmPassword === newPassword
        ? null
        : 'mismatch',
  };
}
