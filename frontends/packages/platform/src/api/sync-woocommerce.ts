import { useMutation, useQueryClient } from '@tanstack/react-query';
import { categoryPath, getConnectionsQueryOptions, http } from '@uplift/platform';
import type { SyncWooCommerceResponseJson } from './types';

/** POST .../connections/woocommerce/sync: reads what changed now (412 when no store is connected). */
export function syncWooCommerce(categoryId: string): Promise<SyncWooCommerceResponseJson> {
  return http.post<SyncWooCommerceResponseJson>(categoryPath(categoryId, 'connections/woocommerce/sync'), {});
}

export function useSyncWooCommerce() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (categoryId: string) => syncWooCommerce(categoryId),
    // The refetch shows the queued sync, which starts the progress polling.
    onSuccess: (_data, categoryId) =>
      queryClient.invalidateQueries({ queryKey: getConnectionsQueryOptions(categoryId).queryKey }),
    meta: { toast: false },
  });
}
