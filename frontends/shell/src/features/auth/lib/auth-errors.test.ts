import { describe, expect, it } from 'vitest';
import { HttpError } from '@uplift/platform';
import { failureMessage, toSignInFailure, toSignUpFailure } from './auth-errors';

const firebaseError = (code: string) => Object.assign(new Error(`Firebase: (${code})`), { code });

describe('toSignInFailure', () => {
  it('maps an unknown user', () => {
    expect(toSignInFailure(firebaseError('auth/user-not-found'))).toEqual({
      message: 'No user exists with that email.',
    });
  });

  it.each(['auth/wrong-password', 'auth/invalid-credential', 'auth/invalid-login-credentials'])(
    'maps %s to invalid credentials',
    (code) => {
      expect(toSignInFailure(firebaseError(code))).toEqual({ message: 'Invalid email or password.' });
    },
  );

  it('gives an empty object for anything else', () => {
    expect(toSignInFailure(firebaseError('auth/too-many-requests'))).toEqual({});
    expect(toSignInFailure(new Error('offline'))).toEqual({});
    expect(toSignInFailure(undefined)).toEqual({});
  });
});

describe('toSignUpFailure', () => {
  it("rethrows the server's JSON error body", () => {
    const body = { message: 'A user with this email already exists.', code: 6 };
    expect(toSignUpFailure(new HttpError(409, 'Conflict', body))).toEqual(body);
  });

  it('gives an empty object otherwise', () => {
    expect(toSignUpFailure(new Error('x'))).toEqual({});
  });
});

describe('failureMessage', () => {
  it('uses the message when there is one', () => {
    expect(failureMessage({ message: 'Invalid email or password.' })).toBe('Invalid email or password.');
  });

  it('falls back to the unknown-error text', () => {
    expect(failureMessage({})).toBe('An unknown error occurred. Please try again.');
    expect(failureMessage({ message: '' })).toBe('An unknown error occurred. Please try again.');
    expect(failureMessage(null)).toBe('An unknown error occurred. Please try again.');
  });
});
