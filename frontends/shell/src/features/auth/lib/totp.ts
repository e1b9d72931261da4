import {
  EmailAuthProvider,
  getMultiFactorResolver,
  reauthenticateWithCredential,
  multiFactor,
  signInWithCustomToken,
  TotpMultiFactorGenerator,
  type Auth,
  type MultiFactorError,
  type User,
  type UserCredential,
} from 'firebase/auth';
import { tokenStore, UNKNOWN_ERROR_MESSAGE, type AccountSecurity } from '@uplift/platform';

/** The issuer name authenticator apps show next to the account. */
export const TOTP_ISSUER = 'Uplift';

export const TOTP_CODE_INVALID_MESSAGE = 'That code is not valid. Please try again.';
export const TOTP_RECENT_LOGIN_MESSAGE = 'For your security, please sign out, sign in again and retry.';
export const TOTP_UNVERIFIED_EMAIL_MESSAGE = 'Please verify your email address before turning on two-step sign-in.';
export const TOTP_PASSWORD_INVALID_MESSAGE = 'That password is not right. Please try again.';

function codeOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** What the user is told when a two-step step fails. */
export function totpErrorMessage(error: unknown): string {
  switch (codeOf(error)) {
    case 'auth/invalid-verification-code':
    case 'auth/missing-code':
      return TOTP_CODE_INVALID_MESSAGE;
    case 'auth/requires-recent-login':
      return TOTP_RECENT_LOGIN_MESSAGE;
    case 'auth/unverified-email':
      return TOTP_UNVERIFIED_EMAIL_MESSAGE;
    case 'auth/wrong-password':
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
      return TOTP_PASSWORD_INVALID_MESSAGE;
    default:
      return UNKNOWN_ERROR_MESSAGE;
  }
}

/**
 * Thrown by a sign-in that needs a time-based code. `complete` finishes it
 * with the code from the user's authenticator app.
 */
export class SecondFactorRequired extends Error {
  constructor(readonly complete: (code: string) => Promise<string>) {
    super('A verification code is required.');
    this.name = 'SecondFactorRequired';
  }
}

export function isSecondFactorRequired(error: unknown): error is SecondFactorRequired {
  return error instanceof SecondFactorRequired;
}

/**
 * If `error` is Firebase's 'auth/multi-factor-auth-required' with a TOTP
 * factor, returns the challenge; `finish` runs after the code is accepted.
 */
export function secondFactorChallenge(
  auth: Auth,
  error: unknown,
  finish: (credential: UserCredential) => Promise<string>,
): SecondFactorRequired | null {
  if (codeOf(error) !== 'auth/multi-factor-auth-required') return null;
  const resolver = getMultiFactorResolver(auth, error as MultiFactorError);
  const hint = resolver.hints.find((factor) => factor.factorId === TotpMultiFactorGenerator.FACTOR_ID);
  // Only time-based codes are offered; another factor type cannot be completed here.
  if (!hint) return null;
  return new SecondFactorRequired(async (code) => {
    const credential = await resolver.resolveSignIn(TotpMultiFactorGenerator.assertionForSignIn(hint.uid, code));
    return finish(credential);
  });
}

function requireUser(auth: Auth): User {
  if (!auth.currentUser) throw new Error('Nobody is signed in');
  return auth.currentUser;
}

/** Runs `step`, turning a Firebase failure into an Error whose message is for people. */
async function friendly<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    console.error('Two-step sign-in step failed', error);
    throw new Error(totpErrorMessage(error), { cause: error });
  }
}

/**
 * Signs `user` in again with the password and, when Firebase asks for the
 * second factor, a current code: Firebase removes a factor only after a
 * recent sign-in, and the server makes recovery codes only after one.
 */
async function reauthenticate(auth: Auth, user: User, password: string, code: string): Promise<void> {
  try {
    await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email ?? '', password));
  } catch (error) {
    if (codeOf(error) !== 'auth/multi-factor-auth-required') throw error;
    const resolver = getMultiFactorResolver(auth, error as MultiFactorError);
    const hint = resolver.hints.find((h) => h.factorId === TotpMultiFactorGenerator.FACTOR_ID);
    if (!hint) throw error;
    await resolver.resolveSignIn(TotpMultiFactorGenerator.assertionForSignIn(hint.uid, code));
  }
}

/**
 * Enrolment from Account Settings, on Firebase's TOTP multi-factor API. Its
 * promises reject with Errors whose messages can be shown as they are.
 */
export function createAccountSecurity(auth: Auth): AccountSecurity {
  return {
    hasTotp() {
      const user = auth.currentUser;
      return Boolean(
        user && multiFactor(user).enrolledFactors.some((f) => f.factorId === TotpMultiFactorGenerator.FACTOR_ID),
      );
    },
    startTotpEnrollment: () => friendly(async () => {
      const user = requireUser(auth);
      const session = await multiFactor(user).getSession();
      const secret = await TotpMultiFactorGenerator.generateSecret(session);
      return {
        secretKey: secret.secretKey,
        otpauthUrl: secret.generateQrCodeUrl(user.email ?? undefined, TOTP_ISSUER),
        finish: (code: string) =>
          friendly(async () => {
            const assertion = TotpMultiFactorGenerator.assertionForEnrollment(secret, code);
            await multiFactor(user).enroll(assertion, 'Authenticator app');
          }),
      };
    }),
    disableTotp: (password: string, code: string) =>
      friendly(async () => {
        const user = requireUser(auth);
        const factor = multiFactor(user).enrolledFactors.find((f) => f.factorId === TotpMultiFactorGenerator.FACTOR_ID);
        if (!factor) return;
        await reauthenticate(auth, user, password, code);
        await multiFactor(user).unenroll(factor);
      }),
    confirmSignIn: (password: string, code: string) =>
      friendly(async () => {
        const user = requireUser(auth);
        await reauthenticate(auth, user, password, code);
        // The next call must carry the new sign-in's token, not wait for
        // onIdTokenChanged to store it.
        tokenStore.set(await user.getIdToken(true));
      }),
    async resumeSession(signInToken: string) {
      await signInWithCustomToken(auth, signInToken);
    },
  };
}
