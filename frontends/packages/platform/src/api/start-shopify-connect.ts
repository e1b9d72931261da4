import { useMutation } from '@tanstack/react-query';
import { categoryPath, http } from '@uplift/platform';
import type { StartShopifyConnectResponseJson } from './types';

/**
 * POST internal/categories/{categoryId}/connections/shopify: checks the shop
 * domain (400 when it is not one, 409 when the shop belongs to another account)
 * and answers with the address where the owner approves the app on Shopify.
 */
export function startShopifyConnect(categoryId: string, shop: string): Promise<StartShopifyConnectResponseJson> {
  return http.post<StartShopifyConnectResponseJson>(categoryPath(categoryId, 'connections/shopify'), { shop });
}

/**
 * Nothing cached changes yet: the browser leaves for Shopify, and the
 * connection exists only once Shopify sends it back. Callers show the errors.
 */
export function useStartShopifyConnect() {
  return useMutation({
    mutationFn: ({ categoryId, shop }: { categoryId: string; shop: string }) => startShopifyConnect(categoryId, shop),
    meta: { toast: false },
  });
}
