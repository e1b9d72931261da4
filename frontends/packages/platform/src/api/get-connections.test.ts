import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/http-error';
import {
  getConnectionsQueryOptions,
  isAnyStoreSyncing,
  isShopifySyncing,
  isWooCommerceSyncing,
  NEW_BUSINESS_RETRIES,
  SHOPIFY_SYNC_POLL_MS,
} from './get-connections';
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

  it('counts a connected WooCommerce store as syncing while queued or importing orders', () => {
    for (const phase of ['QUEUED', 'ORDERS']) {
      expect(isWooCommerceSyncing({ status: 'CONNECTED', sync: { phase } })).toBe(true);
    }
    for (const phase of ['IDLE', 'DONE', 'FAILED', undefined]) {
      expect(isWooCommerceSyncing({ status: 'CONNECTED', sync: { phase } })).toBe(false);
    }
    expect(isWooCommerceSyncing({ status: 'NOT_CONNECTED', sync: { phase: 'ORDERS' } })).toBe(false);
    expect(isWooCommerceSyncing(undefined)).toBe(false);
    expect(isAnyStoreSyncing({ woocommerce: { status: 'CONNECTED', sync: { phase: 'ORDERS' } } })).toBe(true);
    expect(isAnyStoreSyncing({ shopify: { status: 'CONNECTED', sync: { phase: 'DONE' } } })).toBe(false);
  });

  it('refetches every 2 s while a WooCommerce sync runs, even beside an idle Shopify store', () => {
    expect(
      interval({
        shopify: { status: 'CONNECTED', sync: { phase: 'DONE' } },
        woocommerce: { status: 'CONNECTED', sync: { phase: 'ORDERS' } },
      }),
    ).toBe(SHOPIFY_SYNC_POLL_MS);
    expect(interval({ woocommerce: { status: 'CONNECTED', sync: { phase: 'DONE' } } })).toBe(false);
  });

  it('refetches every 2 s only while syncing', () => {
    expect(interval({ shopify: { status: 'CONNECTED', sync: { phase: 'ORDERS' } } })).toBe(SHOPIFY_SYNC_POLL_MS);
    expect(SHOPIFY_SYNC_POLL_MS).toBe(2_000);
    expect(interval({ shopify: { status: 'CONNECTED', sync: { phase: 'DONE' } } })).toBe(false);
    expect(interval({})).toBe(false);
    expect(interval(undefined)).toBe(false);
  });
});

describe('a business still being created', () => {
  it('retries a 404 for a few seconds, and nothing else', () => {
    const retry = getConnectionsQueryOptions('cat1').retry;
    if (typeof retry !== 'function') throw new Error('expected a function');
    const notYet = new HttpError(404, 'Not Found', { message: 'No such business.' });
    expect(retry(0, notYet)).toBe(true);
    expect(retry(NEW_BUSINESS_RETRIES - 1, notYet)).toBe(true);
    expect(retry(NEW_BUSINESS_RETRIES, notYet)).toBe(false);
    expect(retry(0, new HttpError(403, 'Forbidden'))).toBe(false);
    expect(retry(0, new Error('network'))).toBe(false);
  });
});
