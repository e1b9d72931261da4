import type { QueryClient } from '@tanstack/react-query';
import {
  getAdditionalUserInfo,
  GoogleAuthProvider,
  signInWithCustomToken,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut as firebaseSignOut,
  type Auth,
  type User,
  type UserCredential,
} from 'firebase/auth';
import {
  canonicalTimeZone,
  createCategory,
  createOnboarding,
  createUser,
  finishGoogleAuth,
  getMetricsCategoryQueryOptions,
  getProfile,
  STORAGE_KEYS,
  tokenStore,
  trackEvent,
  webSignUpBody,
} from '@uplift/platform';
import { toSignInFailure, toSignUpFailure } from './auth-errors';
import { secondFactorChallenge } from './totp';

/**
 * The account flows of spec section 4. They store the ID token themselves so
 * the calls that follow a sign-in already carry it.
 */
export interface AuthActions {
  /**
   * Resolves to the new user's id, or null when the email already has an
   * account: the server answers that like a new sign-up, without a way to
   * sign in (so it tells nobody who has an account), and emails the
   * address's owner instead. Nobody is signed in then.
   */
  signUp(email: string, password: string): Promise<string | null>;
  /** Rejects with SecondFactorRequired when the account uses two-step sign-in. */
  signIn(email: string, password: string): Promise<string>;
  /** Rejects with SecondFactorRequired when the account uses two-step sign-in. */
  signInWithGoogle(): Promise<void>;
  signOut(): Promise<void>;
}

/** Makes sure the user has a profile (category); creates an onboarding record if not. */
export async function ensureProfile(userId: string): Promise<void> {
  try {
    const profile = await getProfile(userId);
    if (profile.categoryId) return;
  } catch {
    // A missing or failing profile is repaired below.
  }
  await createOnboarding(userId, {});
  await getProfile(userId);
}

/**
 * The browser's IANA time zone ("Europe/Paris"): the business's recurring
 * emails follow it until a connected shop's zone takes over. Undefined when
 * the browser does not say.
 */
export function browserTimeZone(): string | undefined {
  try {
    return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone || undefined);
  } catch {
    return undefined;
  }
}

/** Best-effort set-up after sign-up; failures are logged, never block the user. */
export async function afterSignUp(userId: string, queryClient: QueryClient): Promise<void> {
  try {
    const shopifyCategoryId = localStorage.getItem(STORAGE_KEYS.shopifyCategoryId) ?? undefined;
    const timeZone = browserTimeZone();
    await createCategory({ ...(shopifyCategoryId ? { shopifyCategoryId } : {}), ...(timeZone ? { timeZone } : {}) });
    localStorage.removeItem(STORAGE_KEYS.shopifyCategoryId);
  } catch (error) {
    console.warn('Could not create the category after sign-up', error);
  }
  try {
    // Quietly: the user did nothing that failed.
    await queryClient.fetchQuery({ ...getMetricsCategoryQueryOptions(userId), retry: false, meta: { toast: false } });
  } catch (error) {
    console.warn('Could not load the metrics category after sign-up', error);
  }
}

/** Stores the token and makes sure the profile exists; the user is signed in either way. */
async function afterSignIn(user: User): Promise<string> {
  tokenStore.set(await user.getIdToken());
  try {
    await ensureProfile(user.uid);
  } catch (error) {
    // A missing profile is repaired on the next sign-in.
    console.error('Could not ensure the profile exists', error);
  }
  return user.uid;
}

/** The body of internal/users/finishGoogleAuth for a popup sign-in. */
export function finishGoogleAuthBody(credential: UserCredential) {
  const { user } = credential;
  const email = user.email ?? '';
  const google = user.providerData.find((info) => info.providerId === GoogleAuthProvider.PROVIDER_ID);
  return {
    name: user.displayName || email.split('@')[0] || '',
    email,
    idFromGoogleAuth: google?.uid ?? user.uid,
    // Only a first sign-in gets the welcome email.
    suppressWelcomeEmail: !(getAdditionalUserInfo(credential)?.isNewUser ?? false),
  };
}

/**
 * After the popup: the server stores the user (idempotent), then the profile
 * is ensured. If the server step fails the Firebase session is dropped, so
 * nobody is left signed in without an Uplift account.
 */
export async function afterGoogle(auth: Auth, credential: UserCredential): Promise<string> {
  tokenStore.set(await credential.user.getIdToken());
  try {
    await finishGoogleAuth(finishGoogleAuthBody(credential));
  } catch (error) {
    await firebaseSignOut(auth).catch(() => undefined);
    throw error;
  }
  const userId = await afterSignIn(credential.user);
  trackEvent(getAdditionalUserInfo(credential)?.isNewUser ? 'sign_up' : 'login', { method: 'google' });
  return userId;
}

/** A password sign-in (with or without a second step) is complete. */
async function afterPasswordSignIn(user: User): Promise<string> {
  const userId = await afterSignIn(user);
  trackEvent('login', { method: 'password' });
  return userId;
}

export function createAuthActions(auth: Auth, queryClient: QueryClient): AuthActions {
  return {
    async signUp(email, password) {
      let created;
      try {
        created = await createUser(webSignUpBody(email, password));
      } catch (error) {
        throw toSignUpFailure(error);
      }
      if (!created.id && !created.signInToken) return null;
      if (!created.id || !created.signInToken) throw {};
      const credential = await signInWithCustomToken(auth, created.signInToken);
      tokenStore.set(await credential.user.getIdToken());
      void afterSignUp(created.id, queryClient);
      trackEvent('sign_up', { method: 'password' });
      return created.id;
    },

    async signIn(email, password) {
      let credential;
      try {
        credential = await signInWithEmailAndPassword(auth, email, password);
      } catch (error) {
        const challenge = secondFactorChallenge(auth, error, (resolved) => afterPasswordSignIn(resolved.user));
        if (challenge) throw challenge;
        throw toSignInFailure(error);
      }
      return afterPasswordSignIn(credential.user);
    },

    async signInWithGoogle() {
      let credential;
      try {
        credential = await signInWithPopup(auth, new GoogleAuthProvider());
      } catch (error) {
        const challenge = secondFactorChallenge(auth, error, (resolved) => afterGoogle(auth, resolved));
        if (challenge) throw challenge;
        throw error;
      }
      await afterGoogle(auth, credential);
    },

    async signOut() {
      await firebaseSignOut(auth);
    },
  };
}
