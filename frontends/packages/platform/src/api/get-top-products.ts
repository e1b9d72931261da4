import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import type { StoreDateRange } from './get-store-metrics';
import { categoryKeys } from './query-keys';
import type { GetTopProductsResponseJson } from './types';

/** How many products the top-products list asks for by default. */
export const TOP_PRODUCTS_LIMIT = 10;

/** GET .../business-data/top-products?from=&to=&limit=: products by net sales, highest first. */
export function getTopProducts(
  categoryId: string,
  range: StoreDateRange,
  limit: number = TOP_PRODUCTS_LIMIT,
): Promise<GetTopProductsResponseJson> {
  return http.get<GetTopProductsResponseJson>(categoryPath(categoryId, 'business-data/top-products'), {
    params: { from: range.from, to: range.to, limit },
  });
}

export function getTopProductsQueryOptions(categoryId: string, range: StoreDateRange, limit: number = TOP_PRODUCTS_LIMIT) {
  return queryOptions({
    queryKey: categoryKeys.topProducts(categoryId, range.from, range.to, limit),
    queryFn: () => getTopProducts(categoryId, range, limit),
  });
}

export function useTopProducts(
  categoryId: string | undefined,
  range: StoreDateRange | undefined,
  limit: number = TOP_PRODUCTS_LIMIT,
) {
  return useQuery({
    ...getTopProductsQueryOptions(categoryId ?? '', range ?? { from: '', to: '' }, limit),
    enabled: Boolean(categoryId && range),
  });
}
