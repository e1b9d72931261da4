import { confirmPasswordReset, verifyPasswordResetCode, type Auth } from 'firebase/auth';

/** The Firebase action-link parameters of a password reset (`mode=resetPassword&oobCode=…`). */
export function resetCodeFrom(search: string): string | null {
  const params = new URLSearchParams(search);
  const code = params.get('oobCode');
  return params.get('mode') === 'resetPassword' && code ? code : null;
}

export const RESET_LINK_INVALID_MESSAGE =
  'This link to reset your password has expired or has already been used. Please request a new one.';
export const WEAK_PASSWORD_MESSAGE = 'Please choose a stronger password (at least 6 characters).';

function codeOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** Completing a reset link: which account it is for, then the new password. */
export interface PasswordReset {
  /** Resolves the account's email; rejects with RESET_LINK_INVALID_MESSAGE for a bad link. */
  verify(code: string): Promise<string>;
  confirm(code: string, newPassword: string): Promise<void>;
}

export function createPasswordReset(auth: Auth): PasswordReset {
  return {
    async verify(code) {
      try {
        return await verifyPasswordResetCode(auth, code);
      } catch {
        throw new Error(RESET_LINK_INVALID_MESSAGE);
      }
    },
    async confirm(code, newPassword) {
      try {
        await confirmPasswordReset(auth, code, newPassword);
      } catch (error) {
        const failure = codeOf(error);
        if (failure === 'auth/weak-password') throw new Error(WEAK_PASSWORD_MESSAGE);
        if (failure === 'auth/expired-action-code' || failure === 'auth/invalid-action-code') {
          throw new Error(RESET_LINK_INVALID_MESSAGE);
        }
        throw error;
      }
    },
  };
}
