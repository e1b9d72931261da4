import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { LOADING_TEXT, useSession, useUser } from '@uplift/platform';

/** Shows its children to signed-in users and redirects everyone else. */
export function RequireAuth({ redirectTo, children }: { redirectTo: string; children: ReactNode }) {
  const session = useSession();
  if (session.status === 'unknown') return null;
  if (session.status === 'signedOut') return <Navigate to={redirectTo} replace />;
  return <>{children}</>;
}

/** Like RequireAuth, and the user must also be an uplifter. */
export function RequireUplifter({ redirectTo, children }: { redirectTo: string; children: ReactNode }) {
  return (
    <RequireAuth redirectTo={redirectTo}>
      <UplifterCheck redirectTo={redirectTo}>{children}</UplifterCheck>
    </RequireAuth>
  );
}

function UplifterCheck({ redirectTo, children }: { redirectTo: string; children: ReactNode }) {
  const session = useSession();
  const user = useUser(session.user?.uid);
  if (user.isPending) return <p>{LOADING_TEXT}</p>;
  if (!user.data?.isUplifter) return <Navigate to={redirectTo} replace />;
  return <>{children}</>;
}
