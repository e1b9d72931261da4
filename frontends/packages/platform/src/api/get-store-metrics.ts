import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { GetMetricsResponseJson } from './types';

/** A range of store-local days, both ends included, as YYYY-MM-DD. */
export interface StoreDateRange {
  from: string;
  to: string;
}

/**
 * GET .../business-data/metrics?from=&to=: the store's numbers for every day
 * of the range (at most 400 days) and their totals.
 */
export function getStoreMetrics(categoryId: string, range: StoreDateRange): Promise<GetMetricsResponseJson> {
  return http.get<GetMetricsResponseJson>(categoryPath(categoryId, 'business-data/metrics'), {
    params: { from: range.from, to: range.to },
  });
}

export function getStoreMetricsQueryOptions(categoryId: string, range: StoreDateRange) {
  return queryOptions({
    queryKey: categoryKeys.storeMetrics(categoryId, range.from, range.to),
    queryFn: () => getStoreMetrics(categoryId, range),
  });
}

/** Waits for a category and a range; pass `undefined` while the range is not valid. */
export function useStoreMetrics(categoryId: string | undefined, range: StoreDateRange | undefined) {
  return useQuery({
    ...getStoreMetricsQueryOptions(categoryId ?? '', range ?? { from: '', to: '' }),
    enabled: Boolean(categoryId && range),
  });
}
