import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { IDENTITY_RETURN_PARAM, IDENTITY_RETURNED, useSession } from '@uplift/platform';

/**
 * Back from a hosted identity verification page (`?identity=returned`): opens
 * Account Settings, where the identity row shows the recorded outcome, and
 * drops the parameter so a reload does not open it again.
 */
export function useIdentityReturn(openAccountSettings: () => void): void {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const returned = params.get(IDENTITY_RETURN_PARAM) === IDENTITY_RETURNED;
  const signedIn = session.status === 'signedIn';

  useEffect(() => {
    if (!returned || !signedIn) return;
    openAccountSettings();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(IDENTITY_RETURN_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [returned, signedIn, openAccountSettings, setParams]);
}
