import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { metricsUserKeys } from './query-keys';
import type { ListMetricsUsersResponseJson } from './types';

export const METRICS_USERS_PAGE_SIZE = 20;

/** GET internal/metricsUsers: store owners an uplifter may act for, searched by email or name. */
export function listMetricsUsers(
  params: { query?: string; pageSize?: number; pageToken?: string },
  signal?: AbortSignal,
): Promise<ListMetricsUsersResponseJson> {
  return http.get<ListMetricsUsersResponseJson>('internal/metricsUsers', {
    params: {
      query: params.query || undefined,
      pageSize: params.pageSize ?? METRICS_USERS_PAGE_SIZE,
      pageToken: params.pageToken || undefined,
    },
    signal,
  });
}

export function getMetricsUsersInfiniteQueryOptions(query: string) {
  return infiniteQueryOptions({
    queryKey: metricsUserKeys.search(query),
    queryFn: ({ pageParam, signal }) => listMetricsUsers({ query, pageToken: pageParam }, signal),
    initialPageParam: '',
    // An empty or missing token means there are no more pages.
    getNextPageParam: (last) => last.nextPageToken || undefined,
  });
}

/** Pages of store owners matching `query`; `fetchNextPage` loads more. */
export function useMetricsUsers(query: string) {
  return useInfiniteQuery(getMetricsUsersInfiniteQueryOptions(query));
}
