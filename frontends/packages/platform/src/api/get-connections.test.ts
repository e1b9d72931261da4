import { describe, expect, it } from 'vitest';
import { getConnectionsQueryOptions, isShopifySyncing, SHOPIFY_SYNC_POLL_MS } from './get-connections';
import type { GetConnectionsResponseJson } from './types';

type IntervalQuery = Parameters<Extract<ReturnType<typeof getConnectionsQueryOptions>['refetchInterval'], Function>>[0];
const interval = (data: GetConnectionsResponseJson | undefined) => {
  const refetchInterval = getConnectionsQueryOptions('cat1').refetchInterval;
  if (typeof refetchInterval !== 'function') throw new Error('expected a function');
  return refetchInterval({ state: { data } } as IntervalQuery);
};

describe('connections polling', () => {
  it('counts a connected shop as syncing in every phase but IDLE, DONE and FAILED', () => {
    for (const phase of ['QUEUED', 'SHOP', 'ORDERS', 'PRODUCTS', 'CUSTOMERS', 'SESSIONS']) {
      expect(isShopifySyncing({ status: 'CONNECTED', sync: { phase } })).toBe(true);
    }
    for (const phase of ['IDLE', 'DONE', 'FAILED', undefined]) {
      expect(isShopifySyncing({ status: 'CONNECTED', sync: { phase } })).toBe(false);
    }
    expect(isShopifySyncing({ status: 'CONNECTED' })).toBe(false);
    expect(isShopifySyncing({ status: 'UNINSTALLED', sync: { phase: 'ORDERS' } })).toBe(false);
    expect(isShopifySyncing(undefined)).toBe(false);
  });

  it('refetches every 2 s only while syncing', () => {
    expect(interval({ shopify: { status: 'CONNECTED', sync: { phase: 'ORDERS' } } })).toBe(SHOPIFY_SYNC_POLL_MS);
    expect(SHOPIFY_SYNC_POLL_MS).toBe(2_000);
    expect(interval({ shopify: { status: 'CONNECTED', sync: { phase: 'DONE' } } })).toBe(false);
    expect(interval({})).toBe(false);
    expect(interval(undefined)).toBe(false);
  });
});
