import type { QueryClient } from '@tanstack/react-query';
import type { Auth } from 'firebase/auth';
import type { AuthActions } from './auth-actions';

let actionsModule: Promise<typeof import('./auth-actions')> | undefined;

/**
 * Fetches the account flows' code (auth-actions.ts) once. The sign dialog
 * asks for it as it opens, so 'Continue with Google' finds it loaded and its
 * popup still opens within the click.
 */
export const loadAuthActions = () => (actionsModule ??= import('./auth-actions'));

/**
 * The account flows, with their code fetched on first use rather than with
 * the first page (someone signed in rarely needs more than sign-out).
 */
export function lazyAuthActions(auth: Auth, queryClient: QueryClient): AuthActions {
  let actions: Promise<AuthActions> | undefined;
  const real = () => (actions ??= loadAuthActions().then((m) => m.createAuthActions(auth, queryClient)));
  return {
    signUp: async (email, password) => (await real()).signUp(email, password),
    signIn: async (email, password) => (await real()).signIn(email, password),
    signInWithGoogle: async () => (await real()).signInWithGoogle(),
    signOut: async () => (await real()).signOut(),
  };
}
