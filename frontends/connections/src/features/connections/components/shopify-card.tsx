import { useEffect, useState, type FormEvent } from 'react';
import { browser, canonicalTimeZone, Button, ErrorBanner, isShopifySyncing, serverMessage, UNKNOWN_ERROR_MESSAGE, type ShopifyConnectionJson } from '@uplift/platform';
import { useDisconnectShopify, useStartShopifyConnect, useSyncShopify } from '@uplift/platform/connections';
import { TextField } from '@uplift/platform/text-field';
import { DisconnectDialog, SyncDone, SyncFailed, SyncProgress } from './store-sync';
import { storeCounts } from '../lib/format';

/** What the sync is doing, in the owner's words. */
const PHASE_LABELS: Record<string, string> = {
  QUEUED: 'Waiting to start',
  SHOP: "Reading your shop's details",
  ORDERS: 'Importing orders',
  PRODUCTS: 'Importing products',
  CUSTOMERS: 'Importing customers',
  SESSIONS: 'Importing sessions',
};

const wrap = { overflowWrap: 'anywhere' } as const;

export interface ShopifyCardProps {
  categoryId: string;
  shopify: ShopifyConnectionJson | undefined;
  /** The owner chose a connected Google Analytics 4 property for sessions. */
  sessionsFromGA4?: boolean;
}

/**
 * The Shopify connection: connect, watch the first import, sync, disconnect, or
 * reconnect after an uninstall or after the shop moved to another account.
 */
export function ShopifyCard({ categoryId, shopify, sessionsFromGA4 = false }: ShopifyCardProps) {
  const status = shopify?.status || 'NOT_CONNECTED';
  return (
    <section className="u-card" aria-labelledby="shopify-title">
      <h2 id="shopify-title">Shopify</h2>
      {status === 'CONNECTED' ? (
        <Connected categoryId={categoryId} shopify={shopify ?? {}} sessionsFromGA4={sessionsFromGA4} />
      ) : status === 'UNINSTALLED' ? (
        <>
          <p>
            The Uplift app was uninstalled from {shopify?.name || shopify?.shop || 'your store'} on Shopify, so your
            numbers no longer update. The numbers already imported stay.
          </p>
          <p className="u-muted">Connect again to pick up where the sync left off.</p>
          <ConnectForm categoryId={categoryId} initialShop={shopify?.shop ?? ''} submitLabel="Connect again" />
        </>
      ) : status === 'MOVED' ? (
        <>
          <p role="status">
            {shopify?.name || shopify?.shop || 'Your store'} was connected by another Uplift account: someone who can
            install apps on the shop approved Uplift on Shopify for that account. Its orders, products and customers
            are no longer in this account.
          </p>
          <p className="u-muted">If the shop is yours, connect it again here; it then leaves the other account.</p>
          <ConnectForm categoryId={categoryId} initialShop={shopify?.shop ?? ''} submitLabel="Connect again" />
        </>
      ) : (
        <>
          <p className="u-muted">
            Connect your Shopify store and Uplift imports your orders, products and customers, then keeps them up to
            date.
          </p>
          <ConnectForm categoryId={categoryId} initialShop="" submitLabel="Connect Shopify" />
        </>
      )}
    </section>
  );
}

function connectErrorMessage(error: unknown): string {
  return serverMessage(error, UNKNOWN_ERROR_MESSAGE);
}

/** The shop-domain form; on success the browser goes to Shopify to approve the app. */
function ConnectForm({
  categoryId,
  initialShop,
  submitLabel,
}: {
  categoryId: string;
  initialShop: string;
  submitLabel: string;
}) {
  const [shop, setShop] = useState(initialShop);
  const [leaving, setLeaving] = useState(false);
  const [noRedirect, setNoRedirect] = useState(false);
  const connect = useStartShopifyConnect();
  const error = connect.isError ? connectErrorMessage(connect.error) : noRedirect && UNKNOWN_ERROR_MESSAGE;

  // Back from Shopify's page may restore this one from the back-forward cache, spinner and all.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const domain = shop.trim();
    if (!domain) return;
    setNoRedirect(false);
    connect.mutate(
      { categoryId, shop: domain },
      {
        onSuccess: ({ redirectUrl }) => {
          if (!redirectUrl) {
            setNoRedirect(true);
            return;
          }
          // The button keeps its spinner until the browser has left for Shopify.
          setLeaving(true);
          browser.assign(redirectUrl);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate style={{ maxWidth: '40rem' }}>
      <TextField
        label="Shop domain"
        type="text"
        inputMode="url"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="your-store.myshopify.com"
        value={shop}
        onChange={(event) => {
          setShop(event.target.value);
          if (connect.isError) connect.reset();
        }}
        error={error}
        action={
          <Button type="submit" loading={connect.isPending || leaving} disabled={!shop.trim()}>
            {submitLabel}
          </Button>
        }
      />
    </form>
  );
}

function Connected({
  categoryId,
  shopify,
  sessionsFromGA4,
}: {
  categoryId: string;
  shopify: ShopifyConnectionJson;
  sessionsFromGA4: boolean;
}) {
  const sync = useSyncShopify();
  const disconnect = useDisconnectShopify();
  const [confirming, setConfirming] = useState(false);
  const syncing = isShopifySyncing(shopify);
  const failed = shopify.sync?.phase === 'FAILED';
  const runSync = () => sync.mutate(categoryId);

  return (
    <>
      <p>
        <span className="u-badge u-badge--fixed">Connected</span>{' '}
        <strong style={wrap}>{shopify.name || shopify.shop}</strong>
      </p>
      {shopify.shop && shopify.name && (
        <p className="u-muted" style={wrap}>
          {shopify.shop}
        </p>
      )}
      {(shopify.currency || shopify.timezone) && (
        <p>
          {shopify.currency && <>Currency: {shopify.currency}</>}
          {shopify.currency && shopify.timezone && ' · '}
          {shopify.timezone && <span style={wrap}>Time zone: {canonicalTimeZone(shopify.timezone)}</span>}
        </p>
      )}

      <p>In Uplift: {storeCounts(shopify.stored)}</p>
      {syncing ? (
        <SyncProgress platform="Shopify" phaseLabels={PHASE_LABELS} sync={shopify.sync} />
      ) : failed ? (
        <SyncFailed platform="Shopify" sync={shopify.sync} retrying={sync.isPending} onRetry={runSync} />
      ) : (
        <SyncDone sync={shopify.sync} />
      )}

      <p className="u-muted">
        {sessionsFromGA4
          ? 'Sessions and conversion rate: from Google Analytics 4, as chosen on its card.'
          : shopify.sessionsAvailable
          ? 'Sessions and conversion rate: available from Shopify.'
          : 'Sessions and conversion rate: not available, Shopify does not share them for this store.'}
      </p>

      <div className="inline-form">
        {!failed && (
          <Button variant="secondary" loading={sync.isPending} disabled={syncing} onClick={runSync}>
            Sync now
          </Button>
        )}
        <Button variant="ghost" onClick={() => setConfirming(true)}>
          Disconnect
        </Button>
      </div>
      <ErrorBanner message={sync.isError && serverMessage(sync.error, UNKNOWN_ERROR_MESSAGE)} style={{ marginTop: '.75rem' }} />

      <DisconnectDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        categoryId={categoryId}
        platform="Shopify"
        disconnect={disconnect}
        storeName={shopify.name || shopify.shop || 'your Shopify store'}
      />
    </>
  );
}

