import { useMutation, useQueryClient } from '@tanstack/react-query';
import { categoryPath, getConnectionsQueryOptions, http } from '@uplift/platform';
import type { SyncShopifyResponseJson } from './types';

/** POST .../connections/shopify/sync: sweeps recent changes now (412 when no shop is connected). */
export function syncShopify(categoryId: string): Promise<SyncShopifyResponseJson> {
  return http.post<SyncShopifyResponseJson>(categoryPath(categoryId, 'connections/shopify/sync'), {});
}

export function useSyncShopify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (categoryId: string) => syncShopify(categoryId),
    // The refetch shows the queued sync, which starts the progress polling.
    onSuccess: (_data, categoryId) =>
      queryClient.invalidateQueries({ queryKey: getConnectionsQueryOptions(categoryId).queryKey }),
    meta: { toast: false },
  });
}
