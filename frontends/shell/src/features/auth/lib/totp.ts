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
import { tokenStore, type AccountSecurity } from '@uplift/platform';

/** The issuer name authenticator apps show next to the account. */
export const TOTP_ISSUER = 'Uplift';

export const TOTP_CODE_INVALID_MESSAGE = 'That code is not valid. Please try again.';
export const TOTP_RECENT_LOGIN_MESSAGE = 'For your security, please sign out, sign in again and retry.';
export const TOTP_UNVERIFIED_EMAIL_MESSAGE = 'Please verify your email address before turning on two-step sign-in.';
export const TOTP_PASSWORD_INVALID_MESSAGE = 'That password is not right. Please try again.';
export const TOTP_NOT_AVAILABLE_MESSAGE = 'Two-step sign-in is not available on this server.';
export const TOTP_NETWORK_MESSAGE = 'We could not reach the sign-in service. Please check your connection and try again.';
export const TOTP_TOO_MANY_MESSAGE = 'Too many attempts in a short time. Please wait a few minutes and try again.';
export const TOTP_SESSION_EXPIRED_MESSAGE = 'This sign-in step took too long and has expired. Please start again.';
export const TOTP_ALREADY_ON_MESSAGE = 'Two-step sign-in is already on for this account.';
export const TOTP_SIGNED_OUT_MESSAGE = 'You have been signed out. Please sign in again and retry.';
export const TOTP_NOT_FOUND_MESSAGE = 'Two-step sign-in is no longer set up on this account. Please sign in again.';
export const TOTP_DISABLED_MESSAGE = 'This account has been disabled. Please contact support.';
/** Any other failure still says what failed, and the service's own code for support. */
export const totpFailedMessage = (code: string | undefined) =>
  `The sign-in service refused this two-step sign-in step${code ? ` (${code.replace(/^auth\//, '')})` : ''}. Please try again.`;

function codeOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/**
 * The Auth emulator has no TOTP: it answers the enrolment with
 * 'INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))', which the SDK
 * turns into auth/invalid-argument with that text.
 */
function isTotpUnsupported(error: unknown): boolean {
  const message = error && typeof error === 'object' && 'message' in error ? error.message : undefined;
  return typeof message === 'string' && /phoneEnrollmentInfo|totp/i.test(message);
}

/** What the user is told when a two-step step fails: what happened, never "an unknown error". */
export function totpErrorMessage(error: unknown): string {
  const code = codeOf(error);
  switch (code) {
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
    // A project without TOTP turned on (Firebase) or a server without it (the emulator).
    case 'auth/operation-not-allowed':
    case 'auth/admin-restricted-operation':
    case 'auth/unsupported-first-factor':
      return TOTP_NOT_AVAILABLE_MESSAGE;
    case 'auth/invalid-argument':
      return isTotpUnsupported(error) ? TOTP_NOT_AVAILABLE_MESSAGE : totpFailedMessage(code);
    case 'auth/network-request-failed':
      return TOTP_NETWORK_MESSAGE;
    case 'auth/too-many-requests':
      return TOTP_TOO_MANY_MESSAGE;
    case 'auth/code-expired':
    case 'auth/totp-challenge-timeout':
    case 'auth/invalid-multi-factor-session':
    case 'auth/missing-multi-factor-session':
      return TOTP_SESSION_EXPIRED_MESSAGE;
    case 'auth/second-factor-already-in-use':
    case 'auth/maximum-second-factor-count-exceeded':
      return TOTP_ALREADY_ON_MESSAGE;
    case 'auth/multi-factor-info-not-found':
      return TOTP_NOT_FOUND_MESSAGE;
    case 'auth/user-token-expired':
    case 'auth/user-not-found':
    case 'auth/no-current-user':
      return TOTP_SIGNED_OUT_MESSAGE;
    case 'auth/user-disabled':
      return TOTP_DISABLED_MESSAGE;
  }
  if (error instanceof NotSignedIn) return TOTP_SIGNED_OUT_MESSAGE;
  return totpFailedMessage(code);
}

/** Thrown by a step that needs a signed-in user when there is none. */
class NotSignedIn extends Error {
  constructor() {
    super('Nobody is signed in');
    this.name = 'NotSignedIn';
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
  if (!auth.currentUser) throw new NotSignedIn();
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
