import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '../constants';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { ListRecentIdeasResponseJson } from './types';

/** GET .../business-data/reports/ideas/recent. */
export function getRecentIdeas(categoryId: string): Promise<ListRecentIdeasResponseJson> {
  return http.get<ListRecentIdeasResponseJson>(categoryPath(categoryId, 'business-data/reports/ideas/recent'));
}

export function getRecentIdeasQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.recentIdeas(categoryId),
    queryFn: () => getRecentIdeas(categoryId),
    refetchInterval: POLL_INTERVAL_MS,
  });
}

export function useRecentIdeas(categoryId: string | undefined) {
  return useQuery({ ...getRecentIdeasQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
