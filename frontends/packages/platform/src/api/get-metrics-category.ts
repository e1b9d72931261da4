import { queryOptions } from '@tanstack/react-query';
import { http } from '../http/client';
import { userKeys } from './query-keys';
import type { GetMetricsCategoryResponseJson } from './types';

/** GET internal/users/{userId}/metricsCategory. */
export function getMetricsCategory(userId: string): Promise<GetMetricsCategoryResponseJson> {
  return http.get<GetMetricsCategoryResponseJson>(
    `internal/users/${encodeURIComponent(userId)}/metricsCategory`,
  );
}

export function getMetricsCategoryQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...userKeys.detail(userId), 'metricsCategory'] as const,
    queryFn: () => getMetricsCategory(userId),
  });
}
