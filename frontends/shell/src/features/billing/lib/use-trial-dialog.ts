import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useSession, useUser } from '@uplift/platform';
import { askedForTrial, forcedTrialStore, nextForced, trialDialogOpen, type BillingState } from './trial-dialog';

/** Reads the user's billing as the trial rules need it; signed out counts as unknown. */
function useBillingState(): BillingState {
  const session = useSession();
  const user = useUser(session.status === 'signedIn' ? session.user.uid : undefined);
  if (!user.data) return 'unknown';
  return user.data.billingInfo ? 'present' : 'none';
}

/**
 * Whether the trial dialog is forced open right now. Closing it (Escape, outside
 * click) only hides it for this page view: the stored flag stays until the user
 * has billing info, as the spec asks.
 */
export function useTrialDialog(): { open: boolean; dismiss: () => void } {
  const { search } = useLocation();
  const billing = useBillingState();
  const [dismissed, setDismissed] = useState(false);
  const forced = nextForced(forcedTrialStore.get(), askedForTrial(search), billing);
  // Returning from checkout: the plan is on its way (webhook), do not push it again meanwhile.
  const justPaid = new URLSearchParams(search).get('checkout') === 'success';

  useEffect(() => {
    forcedTrialStore.set(forced);
  }, [forced]);

  return {
    open: !dismissed && !justPaid && trialDialogOpen(forced, billing),
    dismiss: () => setDismissed(true),
  };
}
