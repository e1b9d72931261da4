import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { GetInsightsResponseJson } from './types';

/** GET .../business-data/insights. */
export function getInsights(categoryId: string): Promise<GetInsightsResponseJson> {
  return http.get<GetInsightsResponseJson>(categoryPath(categoryId, 'business-data/insights'));
}

export function getInsightsQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.insights(categoryId),
    queryFn: () => getInsights(categoryId),
  });
}

export function useInsights(categoryId: string | undefined) {
  return useQuery({ ...getInsightsQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
