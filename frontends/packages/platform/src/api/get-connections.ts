import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { isHttpError } from '../http/http-error';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { GetConnectionsResponseJson, ShopifyConnectionJson } from './types';

/** While a Shopify sync runs, the connections are refetched this often. */
export const SHOPIFY_SYNC_POLL_MS = 2_000;

/** Sync phases after which nothing is running (an empty phase is IDLE: proto3 JSON omits it). */
const RESTING_PHASES = new Set(['', 'IDLE', 'DONE', 'FAILED']);

/** True while a connected shop's sync is queued or running (any phase but IDLE, DONE or FAILED). */
export function isShopifySyncing(shopify: ShopifyConnectionJson | undefined): boolean {
  return shopify?.status === 'CONNECTED' && !RESTING_PHASES.has(shopify.sync?.phase ?? '');
}

/** GET internal/categories/{categoryId}/connections: the Shopify connection and the last order import. */
export function getConnections(categoryId: string): Promise<GetConnectionsResponseJson> {
  return http.get<GetConnectionsResponseJson>(categoryPath(categoryId, 'connections'));
}

export function getConnectionsQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.connections(categoryId),
    queryFn: () => getConnections(categoryId),
    // Polls only while a sync runs, so the progress bar moves; idle pages stay quiet.
    refetchInterval: (query) => (isShopifySyncing(query.state.data?.shopify) ? SHOPIFY_SYNC_POLL_MS : false),
    // The page shows its own error; a failing poll must not raise a toast every 2 s.
    meta: { toast: false },
    // Right after sign-up the business is still being created (from the
    // account's event), so its first reads can be 404 for a moment.
    retry: (failures, error) => isHttpError(error) && error.status === 404 && failures < NEW_BUSINESS_RETRIES,
    retryDelay: 1000,
  });
}

/** How many times a just-created business's 404 is retried, a second apart. */
export const NEW_BUSINESS_RETRIES = 8;

export function useConnections(categoryId: string | undefined) {
  return useQuery({ ...getConnectionsQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
