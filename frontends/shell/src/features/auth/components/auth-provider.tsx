import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { onAuthStateChanged, onIdTokenChanged, type Auth, type User } from 'firebase/auth';
import { SessionProvider, tokenStore, userKeys, type Session, type SessionUser } from '@uplift/platform';
import { createAuthActions, type AuthActions } from '../lib/auth-actions';
import { clearRefreshTokenCookie } from '../lib/cookies';

export const AuthActionsContext = createContext<AuthActions | null>(null);

function toSessionUser(user: User): SessionUser {
  return { uid: user.uid, email: user.email, displayName: user.displayName, photoURL: user.photoURL };
}

/** Follows Firebase's auth state, keeps the token store current and provides the session. */
export function AuthProvider({ auth, children }: { auth: Auth; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session>({ status: 'unknown', user: null });
  const actions = useMemo(() => createAuthActions(auth, queryClient), [auth, queryClient]);

  useEffect(() => {
    const stopState = onAuthStateChanged(auth, async (user) => {
      if (!user) {
        tokenStore.set(null);
        clearRefreshTokenCookie();
        queryClient.removeQueries({ queryKey: userKeys.all });
        setSession({ status: 'signedOut', user: null });
        return;
      }
      try {
        tokenStore.set(await user.getIdToken(true));
      } catch (error) {
        console.error('Could not refresh the ID token', error);
      }
      setSession({ status: 'signedIn', user: toSessionUser(user) });
    });
    // Firebase renews the token hourly; keep the store in step without forcing a refresh.
    const stopToken = onIdTokenChanged(auth, async (user) => {
      if (user) tokenStore.set(await user.getIdToken());
    });
    return () => {
      stopState();
      stopToken();
    };
  }, [auth, queryClient]);

  return (
    <AuthActionsContext.Provider value={actions}>
      <SessionProvider session={session}>{children}</SessionProvider>
    </AuthActionsContext.Provider>
  );
}

export function useAuthActions(): AuthActions {
  const actions = useContext(AuthActionsContext);
  if (!actions) throw new Error('useAuthActions must be used inside AuthProvider');
  return actions;
}
