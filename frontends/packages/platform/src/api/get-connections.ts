import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { isHttpError } from '../http/http-error';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { GA4ConnectionJson, GetConnectionsResponseJson, ShopifyConnectionJson, WooCommerceConnectionJson } from './types';

/** While a store's sync (Shopify's or WooCommerce's) runs, the connections are refetched this often. */
export const SHOPIFY_SYNC_POLL_MS = 2_000;

/** Sync phases after which nothing is running (an empty phase is IDLE: proto3 JSON omits it). */
const RESTING_PHASES = new Set(['', 'IDLE', 'DONE', 'FAILED']);

/** True while a connected shop's sync is queued or running (any phase but IDLE, DONE or FAILED). */
export function isShopifySyncing(shopify: ShopifyConnectionJson | undefined): boolean {
  return isStoreSyncing(shopify);
}

/** True while a connected WooCommerce store's sync is queued or running (its phases are QUEUED and ORDERS). */
export function isWooCommerceSyncing(woocommerce: WooCommerceConnectionJson | undefined): boolean {
  return isStoreSyncing(woocommerce);
}

/** True while a Google Analytics 4 property just picked is being read for the first time (no refresh yet, no error). */
export function isGA4Refreshing(ga4: GA4ConnectionJson | undefined): boolean {
  return ga4?.status === 'CONNECTED' && !ga4.lastRefreshedAt && !ga4.error;
}

/** True while any connected store of the business is syncing (or GA4 is first read): what the polling and the sync-end refresh follow. */
export function isAnyStoreSyncing(data: GetConnectionsResponseJson | undefined): boolean {
  return isShopifySyncing(data?.shopify) || isWooCommerceSyncing(data?.woocommerce) || isGA4Refreshing(data?.ga4);
}

/** Both platforms report a sync with the same SyncProgress and the same CONNECTED status. */
function isStoreSyncing(connection: { status?: string; sync?: { phase?: string } } | undefined): boolean {
  return connection?.status === 'CONNECTED' && !RESTING_PHASES.has(connection.sync?.phase ?? '');
}

/** GET internal/categories/{categoryId}/connections: the Shopify and WooCommerce connections and the last order import. */
export function getConnections(categoryId: string): Promise<GetConnectionsResponseJson> {
  return http.get<GetConnectionsResponseJson>(categoryPath(categoryId, 'connections'));
}

export function getConnectionsQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.connections(categoryId),
    queryFn: () => getConnections(categoryId),
    // Polls only while a sync runs, so the progress bar moves; idle pages stay quiet.
    refetchInterval: (query) => (isAnyStoreSyncing(query.state.data) ? SHOPIFY_SYNC_POLL_MS : false),
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
