import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { billingKeys } from './query-keys';
import type { SubscriptionTiersJson } from './types';

/** GET internal/billing/metricsSubscriptionTiers: every tier keyed by id; public. */
export function getSubscriptionTiers(): Promise<SubscriptionTiersJson> {
  return http.get<SubscriptionTiersJson>('internal/billing/metricsSubscriptionTiers');
}

export function getSubscriptionTiersQueryOptions() {
  return queryOptions({
    queryKey: billingKeys.tiers(),
    queryFn: getSubscriptionTiers,
  });
}

export function useSubscriptionTiers(options: { enabled?: boolean } = {}) {
  return useQuery({ ...getSubscriptionTiersQueryOptions(), enabled: options.enabled ?? true });
}
