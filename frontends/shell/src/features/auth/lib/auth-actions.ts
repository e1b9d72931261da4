import type { QueryClient } from '@tanstack/react-query';
import {
  GoogleAuthProvider,
  signInWithCustomToken,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut as firebaseSignOut,
  type Auth,
} from 'firebase/auth';
import {
  createCategory,
  createOnboarding,
  createUser,
  getMetricsCategoryQueryOptions,
  getProfile,
  STORAGE_KEYS,
  tokenStore,
  webSignUpBody,
} from '@uplift/platform';
import { toSignInFailure, toSignUpFailure } from './auth-errors';

/**
 * The account flows of spec section 4. They store the ID token themselves so
 * the calls that follow a sign-in already carry it.
 */
export interface AuthActions {
  signUp(email: string, password: string): Promise<string>;
  signIn(email: string, password: string): Promise<string>;
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

/** Best-effort set-up after sign-up; failures are logged, never block the user. */
export async function afterSignUp(userId: string, queryClient: QueryClient): Promise<void> {
  try {
    const shopifyCategoryId = localStorage.getItem(STORAGE_KEYS.shopifyCategoryId) ?? undefined;
    await createCategory(shopifyCategoryId ? { shopifyCategoryId } : {});
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

export function createAuthActions(auth: Auth, queryClient: QueryClient): AuthActions {
  return {
    async signUp(email, password) {
      let created;
      try {
        created = await createUser(webSignUpBody(email, password));
      } catch (error) {
        throw toSignUpFailure(error);
      }
      if (!created.id || !created.signInToken) throw {};
      const credential = await signInWithCustomToken(auth, created.signInToken);
      tokenStore.set(await credential.user.getIdToken());
      void afterSignUp(created.id, queryClient);
      return created.id;
    },

    async signIn(email, password) {
      let credential;
      try {
        credential = await signInWithEmailAndPassword(auth, email, password);
      } catch (error) {
        throw toSignInFailure(error);
      }
      tokenStore.set(await credential.user.getIdToken());
      try {
        await ensureProfile(credential.user.uid);
      } catch (error) {
        // The user is signed in; a missing profile is repaired on the next sign-in.
        console.error('Could not ensure the profile exists', error);
      }
      return credential.user.uid;
    },

    async signInWithGoogle() {
      // Finishing Google auth on the server (internal/users/finishGoogleAuth) comes later.
      await signInWithPopup(auth, new GoogleAuthProvider());
    },

    async signOut() {
      await firebaseSignOut(auth);
    },
  };
}
