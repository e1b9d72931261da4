import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { getUserQueryOptions, trackEvent, useSession } from '@uplift/platform';
import { currentTierId, isPaidTier } from './tier';

/** How often, and for how long, the user is refetched after Stripe sends the browser back. */
export const CHECKOUT_POLL_MS = 2_000;
export const CHECKOUT_POLL_FOR_MS = 60_000;

/** The plan a purchase just brought, to confirm; `dismiss` closes the confirmation. */
export interface CheckoutReturn {
  confirmedTier: string | null;
  dismiss: () => void;
}

/**
 * After a successful checkout the plan arrives asynchronously (webhook → event →
 * users), so the user is refetched until it shows a paid tier; then the
 * `checkout=success` marker leaves the address and the new plan is confirmed.
 */
export function useCheckoutReturn(): CheckoutReturn {
  const session = useSession();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [startedAt] = useState(() => Date.now());
  const [confirmedTier, setConfirmedTier] = useState<string | null>(null);
  const userId = session.status === 'signedIn' ? session.user.uid : '';
  const returning = new URLSearchParams(search).get('checkout') === 'success';

  const user = useQuery({
    ...getUserQueryOptions(userId),
    enabled: returning && Boolean(userId),
    refetchInterval: (query) => {
      const paid = isPaidTier(currentTierId(query.state.data?.billingInfo));
      return paid || Date.now() - startedAt > CHECKOUT_POLL_FOR_MS ? false : CHECKOUT_POLL_MS;
    },
  });
  const paid = user.data ? isPaidTier(currentTierId(user.data.billingInfo)) : false;

  useEffect(() => {
    if (!returning || !paid) return;
    const tier = currentTierId(user.data?.billingInfo);
    trackEvent('plan_changed', { tier });
    setConfirmedTier(tier);
    const params = new URLSearchParams(search);
    params.delete('checkout');
    const rest = params.toString();
    navigate({ pathname, search: rest ? `?${rest}` : '' }, { replace: true });
  }, [returning, paid, pathname, search, navigate, user.data?.billingInfo]);
  return { confirmedTier, dismiss: () => setConfirmedTier(null) };
}
