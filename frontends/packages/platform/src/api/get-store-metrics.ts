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
 * Which days to ask for: a range of days, or the last whole days on the
 * store's clock (`lastDays`, resolved by the server, today left out), which
 * is how the presets ask so that the viewer's clock never moves them.
 */
export type StoreMetricsRequest = StoreDateRange | { lastDays: number };

/** How many best products the Analytics page lists. */
export const TOP_PRODUCTS_LIMIT = 10;

/**
 * GET .../business-data/metrics?from=&to= (or ?lastDays=)&withPrevious=true&topProducts=10:
 * the store's numbers for every day of the range (at most 400 days), their
 * totals, the range as resolved, the store's today, its first order's day,
 * and, in the same answer, the totals of as many days just before the range
 * and the range's best products: all the Analytics page shows, in one request.
 */
export function getStoreMetrics(categoryId: string, request: StoreMetricsRequest): Promise<GetMetricsResponseJson> {
  const range = 'lastDays' in request ? { lastDays: request.lastDays } : { from: request.from, to: request.to };
  return http.get<GetMetricsResponseJson>(categoryPath(categoryId, 'business-data/metrics'), {
    params: { ...range, withPrevious: true, topProducts: TOP_PRODUCTS_LIMIT },
  });
}

export function getStoreMetricsQueryOptions(categoryId: string, request: StoreMetricsRequest) {
  return queryOptions({
    queryKey:
      'lastDays' in request
        ? categoryKeys.storeMetricsLastDays(categoryId, request.lastDays)
        : categoryKeys.storeMetrics(categoryId, request.from, request.to),
    queryFn: () => getStoreMetrics(categoryId, request),
  });
}

/** Waits for a category and a request; pass `undefined` while the range is not valid. */
export function useStoreMetrics(categoryId: string | undefined, request: StoreMetricsRequest | undefined) {
  return useQuery({
    ...getStoreMetricsQueryOptions(categoryId ?? '', request ?? { from: '', to: '' }),
    enabled: Boolean(categoryId && request),
  });
}
