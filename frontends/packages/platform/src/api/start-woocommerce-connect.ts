import { useMutation } from '@tanstack/react-query';
import { categoryPath, http } from '@uplift/platform';
import type { StartWooCommerceConnectResponseJson } from './types';

/**
 * POST internal/categories/{categoryId}/connections/woocommerce: checks the
 * store's address (400 with the reason when it is not one, or not https) and
 * answers with the store's own approval page (its /wc-auth/v1/authorize).
 */
export function startWooCommerceConnect(categoryId: string, storeUrl: string): Promise<StartWooCommerceConnectResponseJson> {
  return http.post<StartWooCommerceConnectResponseJson>(categoryPath(categoryId, 'connections/woocommerce'), { storeUrl });
}

/**
 * Nothing cached changes yet: the browser leaves for the store, and the
 * connection exists only once WooCommerce has posted the keys. Callers show the errors.
 */
export function useStartWooCommerceConnect() {
  return useMutation({
    mutationFn: ({ categoryId, storeUrl }: { categoryId: string; storeUrl: string }) =>
      startWooCommerceConnect(categoryId, storeUrl),
    meta: { toast: false },
  });
}
