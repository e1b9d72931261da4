import { isHttpError, UNKNOWN_ERROR_MESSAGE } from '@uplift/platform';

/** What the sign dialog shows: a message, or nothing (then the generic fallback). */
export interface AuthFailure {
  message?: string;
}

export const USER_NOT_FOUND_MESSAGE = 'No user exists with that email.';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password.';
export const GOOGLE_SIGN_IN_FAILED_MESSAGE = 'Something went wrong, please try again.';

function firebaseCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** Maps a Firebase sign-in error to the spec's messages; anything else is an empty object. */
export function toSignInFailure(error: unknown): AuthFailure {
  switch (firebaseCode(error)) {
    case 'auth/user-not-found':
      return { message: USER_NOT_FOUND_MESSAGE };
    case 'auth/wrong-password':
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
      return { message: INVALID_CREDENTIALS_MESSAGE };
    default:
      return {};
  }
}

/** A failed sign-up surfaces the server's JSON error body, or an empty object. */
export function toSignUpFailure(error: unknown): AuthFailure {
  return isHttpError(error) ? error.body : {};
}

/** The text for the dialog's red banner. */
export function failureMessage(failure: unknown): string {
  if (failure && typeof failure === 'object' && 'message' in failure) {
    const { message } = failure;
    if (typeof message === 'string' && message) return message;
  }
  return UNKNOWN_ERROR_MESSAGE;
}
