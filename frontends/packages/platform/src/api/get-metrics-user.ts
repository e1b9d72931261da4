import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { metricsUserKeys } from './query-keys';
import type { UserJson } from './types';

/** GET internal/metricsUsers/{userId}: one store owner, for an uplifter. */
export function getMetricsUser(userId: string): Promise<UserJson> {
  return http.get<UserJson>(`internal/metricsUsers/${encodeURIComponent(userId)}`);
}

export function getMetricsUserQueryOptions(userId: string) {
  return queryOptions({
    queryKey: metricsUserKeys.detail(userId),
    queryFn: () => getMetricsUser(userId),
  });
}

export function useMetricsUser(userId: string | undefined) {
  return useQuery({ ...getMetricsUserQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
