import { createContext, useContext, type ReactNode } from 'react';

/** The signed-in user as the shell's auth layer exposes it to every remote. */
export interface SessionUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
}

export type Session =
  | { status: 'unknown'; user: null }
  | { status: 'signedOut'; user: null }
  | { status: 'signedIn'; user: SessionUser };

const SessionContext = createContext<Session>({ status: 'unknown', user: null });

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The current session; provided by the shell around every remote. */
export function useSession(): Session {
  return useContext(SessionContext);
}
