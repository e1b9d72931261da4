import { useEffect, useRef } from 'react';
import { partialMatchKey, useQueryClient } from '@tanstack/react-query';
import {
  categoryKeys,
  ErrorBanner,
  isShopifySyncing,
  serverMessage,
  Spinner,
  UNKNOWN_ERROR_MESSAGE,
  useCategoryId,
  useConnections,
  usePageTitle,
  useSession,
  type ShopifyConnectionJson,
} from '@uplift/platform';
import { OrderImportCard } from './order-import-card';
import { ShopifyCard } from './shopify-card';
import { ShopifyReturnNote } from './shopify-return-note';

/** Connections (`/connections`): the Shopify connection and the order-export import. */
export function ConnectionsPage() {
  usePageTitle('Connections');
  const session = useSession();
  return (
    <main className="u-page">
      <h1>Connections</h1>
      <p className="u-muted">Connect your store, or import an order export, so Uplift can work with your numbers.</p>
      {session.status === 'signedIn' ? (
        <>
          <ShopifyReturnNote />
          <SignedInConnections />
        </>
      ) : (
        <section className="u-card" aria-labelledby="connections-sign-in-title">
          <h2 id="connections-sign-in-title">Sign in to connect your store</h2>
          <p>Once signed in you can connect Shopify or import your order export here.</p>
        </section>
      )}
    </main>
  );
}

function SignedInConnections() {
  const { categoryId, isPending } = useCategoryId();
  const connections = useConnections(categoryId);
  useRefreshWhenSyncEnds(categoryId, connections.data?.shopify);

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
  return (
    <>
      <ShopifyCard categoryId={categoryId} shopify={connections.data?.shopify} />
      <OrderImportCard categoryId={categoryId} lastImport={connections.data?.lastImport} />
    </>
  );
}

/**
 * When a sync finishes, the business's numbers have changed: everything else
 * cached for the category (Home, Analytics) is marked stale so it refetches.
 */
function useRefreshWhenSyncEnds(categoryId: string | undefined, shopify: ShopifyConnectionJson | undefined) {
  const queryClient = useQueryClient();
  const syncing = isShopifySyncing(shopify);
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
