import { useEffect, useRef } from 'react';
import { partialMatchKey, useQueryClient } from '@tanstack/react-query';
import {
  categoryKeys,
  ErrorBanner,
  isAnyStoreSyncing,
  serverMessage,
  Spinner,
  UNKNOWN_ERROR_MESSAGE,
  useCategoryId,
  useConnections,
  usePageTitle,
  useSession,
  type GetConnectionsResponseJson,
} from '@uplift/platform';
import { OrderImportCard } from './order-import-card';
import { ShopifyCard } from './shopify-card';
import { WooCommerceCard } from './woocommerce-card';
import { GA4Card } from './ga4-card';
import { StoreReturnNote } from './store-return-note';

/** Connections (`/connections`): the Shopify, WooCommerce and Google Analytics 4 connections and the order-export import. */
export function ConnectionsPage() {
  usePageTitle('Connections');
  const session = useSession();
  return (
    <main className="u-page">
      <h1>Connections</h1>
      <p className="u-muted">Connect your store, or import an order export, so Uplift can work with your numbers.</p>
      <p className="u-muted">{SUPPORTED_PLATFORMS}</p>
      {session.status === 'signedIn' ? (
        <>
          <StoreReturnNote param="shopify" />
          <StoreReturnNote param="woocommerce" />
          <StoreReturnNote param="ga4" />
          <SignedInConnections />
        </>
      ) : (
        <section className="u-card" aria-labelledby="connections-sign-in-title">
          <h2 id="connections-sign-in-title">Sign in to connect your store</h2>
          <p>Once signed in you can connect Shopify or WooCommerce, or import your order export, here.</p>
        </section>
      )}
    </main>
  );
}

/**
 * What each way in supplies, as the stores service reads it (services/stores/README.md):
 * a WooCommerce sync reads orders with their refunds and only counts products and
 * customers, and neither it nor an export brings sessions.
 */
export const SUPPORTED_PLATFORMS =
  'Supported: Shopify (orders, products, customers and sessions), WooCommerce (orders and refunds, and the counts of products and customers; no sessions), an order export (orders) and Google Analytics 4 for any store (sessions and purchases, for the conversion rate).';

function SignedInConnections() {
  const { categoryId, isPending } = useCategoryId();
  const connections = useConnections(categoryId);
  useRefreshWhenSyncEnds(categoryId, connections.data);

  if (isPending || (categoryId && connections.isPending)) {
    return (
      <p>
        <Spinner /> Loading your connections…
      </p>
    );
  }
  if (!categoryId) {
    return <p className="u-muted">Your account is still being set up. Refresh the page in a moment.</p>;
  }
  if (connections.isError && !connections.data) {
    return (
      <ErrorBanner
        message={`We couldn't load your connections. ${serverMessage(connections.error, UNKNOWN_ERROR_MESSAGE)}`}
      />
    );
  }
  // Each store card says where its sessions come from: a connected GA4
  // property is the source unless the owner kept Shopify's.
  const ga4 = connections.data?.ga4;
  const sessionsFromGA4 = ga4?.status === 'CONNECTED' && ga4.sessionsSource !== 'shopify';
  return (
    <>
      <ShopifyCard categoryId={categoryId} shopify={connections.data?.shopify} sessionsFromGA4={sessionsFromGA4} />
      <WooCommerceCard categoryId={categoryId} woocommerce={connections.data?.woocommerce} sessionsFromGA4={sessionsFromGA4} />
      <OrderImportCard categoryId={categoryId} lastImport={connections.data?.lastImport} />
      <GA4Card
        categoryId={categoryId}
        ga4={connections.data?.ga4}
        shopifySessions={connections.data?.shopify?.status === 'CONNECTED' && Boolean(connections.data.shopify.sessionsAvailable)}
      />
    </>
  );
}

/**
 * When a sync finishes (Shopify's or WooCommerce's), the business's numbers have changed:
 * everything else cached for the category (Home, Analytics) is marked stale so it refetches.
 */
function useRefreshWhenSyncEnds(categoryId: string | undefined, connections: GetConnectionsResponseJson | undefined) {
  const queryClient = useQueryClient();
  const syncing = isAnyStoreSyncing(connections);
  const wasSyncing = useRef(syncing);
  useEffect(() => {
    if (wasSyncing.current && !syncing && categoryId) {
      const connectionsKey = categoryKeys.connections(categoryId);
      void queryClient.invalidateQueries({
        queryKey: categoryKeys.detail(categoryId),
        // The connections themselves were just fetched; only the rest is stale.
        predicate: (query) => !partialMatchKey(query.queryKey, connectionsKey),
      });
    }
    wasSyncing.current = syncing;
  }, [categoryId, syncing, queryClient]);
}
