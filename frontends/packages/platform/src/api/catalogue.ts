import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { ListCatalogueProductsResponseJson } from './types';

/** GET .../catalogue/products: the products on the store's website, with their photos (read by the server). */
export function listCatalogueProducts(categoryId: string): Promise<ListCatalogueProductsResponseJson> {
  return http.get<ListCatalogueProductsResponseJson>(categoryPath(categoryId, 'catalogue/products'));
}

export function listCatalogueProductsQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.catalogueProducts(categoryId),
    queryFn: () => listCatalogueProducts(categoryId),
    // The server keeps the list for a few minutes; reading the website again on every focus helps nobody.
    staleTime: 5 * 60_000,
    retry: false,
    // The page says why the catalogue is not there (no website yet, site unreadable).
    meta: { toast: false },
  });
}

export function useCatalogueProducts(categoryId: string | undefined) {
  return useQuery({ ...listCatalogueProductsQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
