import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { onAuthStateChanged, onIdTokenChanged, type Auth, type User } from 'firebase/auth';
import {
  AccountSecurityProvider,
  SessionProvider,
  tokenStore,
  userKeys,
  useUser,
  type Session,
  type SessionUser,
} from '@uplift/platform';
import type { AuthActions } from '../lib/auth-actions';
import { clearRefreshTokenCookie, setRefreshTokenCookie } from '../lib/cookies';
import { lazyAuthActions } from '../lib/lazy-auth-actions';
import { createPasswordReset, type PasswordReset } from '../lib/password-reset';
import { syncToken } from '../lib/token-sync';
import { mustRefreshKeptToken, rolesOutOfStep } from '../lib/token-freshness';
import { createAccountSecurity } from '../lib/totp';

export const AuthActionsContext = createContext<AuthActions | null>(null);
export const PasswordResetContext = createContext<PasswordReset | null>(null);

function toSessionUser(user: User): SessionUser {
  return { uid: user.uid, email: user.email, displayName: user.displayName, photoURL: user.photoURL };
}

export interface AuthProviderProps {
  auth: Auth;
  /** Optional token sync endpoint (UPLIFT_TOKEN_SYNC_URL). */
  tokenSyncUrl?: string;
  children: ReactNode;
}

/** Follows Firebase's auth state, keeps the token store current and provides the session. */
export function AuthProvider({ auth, tokenSyncUrl, children }: AuthProviderProps) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session>({ status: 'unknown', user: null });
  const actions = useMemo(() => lazyAuthActions(auth, queryClient), [auth, queryClient]);
  const passwordReset = useMemo(() => createPasswordReset(auth), [auth]);
  const security = useMemo(() => createAccountSecurity(auth), [auth]);
  const signedInUser = useRef<User | null>(null);
  const claims = useRef<Record<string, unknown>>({});
  const refreshedFor = useRef<string | null>(null);
  const stored = useUser(session.user?.uid).data;

  // A role granted or revoked since the kept token was issued: one forced
  // refresh per account (not a loop when the claim could not be set), then
  // what was refused under the old claims is asked for again.
  useEffect(() => {
    const user = signedInUser.current;
    if (!stored || !user || refreshedFor.current === user.uid || !rolesOutOfStep(claims.current, stored)) return;
    refreshedFor.current = user.uid;
    user
      .getIdToken(true)
      .then(() => queryClient.invalidateQueries())
      .catch((error: unknown) => console.error('Could not refresh the ID token', error));
  }, [stored, queryClient]);

  useEffect(() => {
    const stopState = onAuthStateChanged(auth, async (user) => {
      if (!user) {
        tokenStore.set(null);
        clearRefreshTokenCookie();
        queryClient.removeQueries({ queryKey: userKeys.all });
        setSession({ status: 'signedOut', user: null });
        void syncToken(tokenSyncUrl, null);
        return;
      }
      setRefreshTokenCookie(user.refreshToken);
      signedInUser.current = user;
      try {
        // The token kept from the last visit serves unless it is stale for its use (token-freshness.ts).
        let result = await user.getIdTokenResult();
        if (mustRefreshKeptToken(result, user, tokenSyncUrl)) result = await user.getIdTokenResult(true);
        claims.current = result.claims;
        tokenStore.set(result.token);
        void syncToken(tokenSyncUrl, { value: result.token, issuedAtTime: result.issuedAtTime });
      } catch (error) {
        console.error('Could not refresh the ID token', error);
      }
      setSession({ status: 'signedIn', user: toSessionUser(user) });
    });
    // Firebase renews the token hourly; keep the store in step without forcing a refresh.
    const stopToken = onIdTokenChanged(auth, async (user) => {
      if (!user) return;
      setRefreshTokenCookie(user.refreshToken);
      const result = await user.getIdTokenResult();
      claims.current = result.claims;
      tokenStore.set(result.token);
    });
    return () => {
      stopState();
      stopToken();
    };
  }, [auth, queryClient, tokenSyncUrl]);

  return (
    <AuthActionsContext.Provider value={actions}>
      <PasswordResetContext.Provider value={passwordReset}>
        <AccountSecurityProvider value={security}>
          <SessionProvider session={session}>{children}</SessionProvider>
        </AccountSecurityProvider>
      </PasswordResetContext.Provider>
    </AuthActionsContext.Provider>
  );
}

export function useAuthActions(): AuthActions {
  const actions = useContext(AuthActionsContext);
  if (!actions) throw new Error('useAuthActions must be used inside AuthProvider');
  return actions;
}

export function usePasswordReset(): PasswordReset {
  const reset = useContext(PasswordResetContext);
  if (!reset) throw new Error('usePasswordReset must be used inside AuthProvider');
  return reset;
}
