import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { categoryKeys, categoryPath, getConnectionsQueryOptions, http } from '@uplift/platform';
import type {
  DisconnectGA4ResponseJson,
  ListGA4PropertiesResponseJson,
  SelectGA4PropertyResponseJson,
  StartGA4ConnectResponseJson,
  SyncGA4ResponseJson,
} from './types';

/**
 * POST internal/categories/{categoryId}/connections/ga4: a one-use state for
 * Google's consent; the answer is the gateway route that goes on to Google.
 */
export function startGA4Connect(categoryId: string): Promise<StartGA4ConnectResponseJson> {
  return http.post<StartGA4ConnectResponseJson>(categoryPath(categoryId, 'connections/ga4'), {});
}

/** Nothing cached changes: the browser leaves for Google. Callers show the errors. */
export function useStartGA4Connect() {
  return useMutation({
    mutationFn: (categoryId: string) => startGA4Connect(categoryId),
    meta: { toast: false },
  });
}

/** GET .../connections/ga4/properties: the GA4 properties the Google user can read. */
export function listGA4Properties(categoryId: string): Promise<ListGA4PropertiesResponseJson> {
  return http.get<ListGA4PropertiesResponseJson>(categoryPath(categoryId, 'connections/ga4/properties'));
}

export function getGA4PropertiesQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.ga4Properties(categoryId),
    queryFn: () => listGA4Properties(categoryId),
    meta: { toast: false },
    retry: false,
  });
}

export function useGA4Properties(categoryId: string, enabled: boolean) {
  return useQuery({ ...getGA4PropertiesQueryOptions(categoryId), enabled });
}

/** Everything of the category is stale once GA4's sessions become (or stop being) its sessions. */
function useInvalidateCategory() {
  const queryClient = useQueryClient();
  return (categoryId: string) => queryClient.invalidateQueries({ queryKey: categoryKeys.detail(categoryId) });
}

/** POST .../connections/ga4/property: picks the property and where sessions come from ("ga4" or "shopify"). */
export function selectGA4Property(
  categoryId: string,
  propertyId: string,
  sessionsSource?: string,
): Promise<SelectGA4PropertyResponseJson> {
  return http.post<SelectGA4PropertyResponseJson>(categoryPath(categoryId, 'connections/ga4/property'), {
    propertyId,
    ...(sessionsSource ? { sessionsSource } : {}),
  });
}

export function useSelectGA4Property() {
  const invalidate = useInvalidateCategory();
  return useMutation({
    mutationFn: ({ categoryId, propertyId, sessionsSource }: { categoryId: string; propertyId: string; sessionsSource?: string }) =>
      selectGA4Property(categoryId, propertyId, sessionsSource),
    onSuccess: (_data, { categoryId }) => invalidate(categoryId),
    meta: { toast: false },
  });
}

/** POST .../connections/ga4/sync: read the property's days again now. */
export function syncGA4(categoryId: string): Promise<SyncGA4ResponseJson> {
  return http.post<SyncGA4ResponseJson>(categoryPath(categoryId, 'connections/ga4/sync'), {});
}

export function useSyncGA4() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (categoryId: string) => syncGA4(categoryId),
    onSuccess: (_data, categoryId) =>
      queryClient.invalidateQueries({ queryKey: getConnectionsQueryOptions(categoryId).queryKey }),
    meta: { toast: false },
  });
}

/** DELETE .../connections/ga4: revokes Uplift's access at Google; the days read stay. */
export function disconnectGA4(categoryId: string): Promise<DisconnectGA4ResponseJson> {
  return http.delete<DisconnectGA4ResponseJson>(categoryPath(categoryId, 'connections/ga4'));
}

export function useDisconnectGA4() {
  const invalidate = useInvalidateCategory();
  return useMutation({
    mutationFn: (categoryId: string) => disconnectGA4(categoryId),
    onSuccess: (_data, categoryId) => invalidate(categoryId),
    meta: { toast: false },
  });
}
