import { useMutation, useQueryClient } from '@tanstack/react-query';
import { categoryKeys, categoryPath, http } from '@uplift/platform';
import type { ImportOrdersRequestJson, ImportOrdersResponseJson } from './types';

/** The one export format the import understands: Shopify Admin → Orders → Export, CSV. */
export const SHOPIFY_ORDERS_CSV_FORMAT = 'shopify-orders-csv';

/** The largest file the import accepts (the stores service's limit): 20 MB. */
export const ORDER_IMPORT_MAX_BYTES = 20 * 1024 * 1024;

export type ImportOrdersBody = Omit<ImportOrdersRequestJson, 'categoryId'>;

/**
 * POST .../business-data/orders/import: all or nothing; a bad file answers 400
 * with a message naming the row and column. The same file twice changes nothing.
 */
export function importOrders(categoryId: string, body: ImportOrdersBody): Promise<ImportOrdersResponseJson> {
  return http.post<ImportOrdersResponseJson>(categoryPath(categoryId, 'business-data/orders/import'), body);
}

export function useImportOrders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, csv }: { categoryId: string; csv: string }) =>
      importOrders(categoryId, { format: SHOPIFY_ORDERS_CSV_FORMAT, csv }),
    // New orders change every number of the business: Home, Analytics and this page refetch.
    onSuccess: (_data, { categoryId }) => queryClient.invalidateQueries({ queryKey: categoryKeys.detail(categoryId) }),
    meta: { toast: false },
  });
}
