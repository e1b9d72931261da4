import { useMutation, useQueryClient } from '@tanstack/react-query';
import { categoryPath, getConnectionsQueryOptions, http } from '@uplift/platform';
import type { DisconnectShopifyResponseJson } from './types';

/** DELETE .../connections/shopify: stops syncing and forgets the shop's token; imported numbers stay. */
export function disconnectShopify(categoryId: string): Promise<DisconnectShopifyResponseJson> {
  return http.delete<DisconnectShopifyResponseJson>(categoryPath(categoryId, 'connections/shopify'));
}

export function useDisconnectShopify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (categoryId: string) => disconnectShopify(categoryId),
    // Only the connection changes: the numbers already imported stay.
    onSuccess: (_data, categoryId) =>
      queryClient.invalidateQueries({ queryKey: getConnectionsQueryOptions(categoryId).queryKey }),
    meta: { toast: false },
  });
}
