import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { getUserQueryOptions, trackEvent, useSession } from '@uplift/platform';
import { currentTierId, isPaidTier } from './tier';

/** How often, and for how long, the user is refetched after Stripe sends the browser back. */
export const CHECKOUT_POLL_MS = 2_000;
export const CHECKOUT_POLL_FOR_MS = 60_000;

/**
 * After a successful checkout the plan arrives asynchronously (webhook → event →
 * users), so the user is refetched until it shows a paid tier; then the
 * `checkout=success` marker leaves the address.
 */
export function useCheckoutReturn(): void {
  const session = useSession();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [startedAt] = useState(() => Date.now());
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
    trackEvent('plan_changed', { tier: currentTierId(user.data?.billingInfo) });
    const params = new URLSearchParams(search);
    params.delete('checkout');
    const rest = params.toString();
    navigate({ pathname, search: rest ? `?${rest}` : '' }, { replace: true });
  }, [returning, paid, pathname, search, navigate, user.data?.billingInfo]);
}
