import { useMutation, useQueryClient } from '@tanstack/react-query';
import { categoryPath, getConnectionsQueryOptions, http } from '@uplift/platform';
import type { DisconnectWooCommerceResponseJson } from './types';

/** DELETE .../connections/woocommerce: stops syncing and forgets the store's keys; imported numbers stay. */
export function disconnectWooCommerce(categoryId: string): Promise<DisconnectWooCommerceResponseJson> {
  return http.delete<DisconnectWooCommerceResponseJson>(categoryPath(categoryId, 'connections/woocommerce'));
}

export function useDisconnectWooCommerce() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (categoryId: string) => disconnectWooCommerce(categoryId),
    // Only the connection changes: the numbers already imported stay.
    onSuccess: (_data, categoryId) =>
      queryClient.invalidateQueries({ queryKey: getConnectionsQueryOptions(categoryId).queryKey }),
    meta: { toast: false },
  });
}
