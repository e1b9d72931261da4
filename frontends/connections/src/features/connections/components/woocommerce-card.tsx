import { useEffect, useRef, useState, type FormEvent } from 'react';
import { browser, canonicalTimeZone, Button, ErrorBanner, isWooCommerceSyncing, serverMessage, UNKNOWN_ERROR_MESSAGE, type WooCommerceConnectionJson } from '@uplift/platform';
import { useDisconnectWooCommerce, useStartWooCommerceConnect, useSyncWooCommerce } from '@uplift/platform/connections';
import { TextField } from '@uplift/platform/text-field';
import { DisconnectDialog, SyncDone, SyncFailed, SyncProgress } from './store-sync';
import { storeCounts } from '../lib/format';

/** What the sync is doing, in the owner's words (a WooCommerce sync counts products and customers, then reads orders). */
const PHASE_LABELS: Record<string, string> = {
  QUEUED: 'Waiting to start',
  ORDERS: 'Importing orders and refunds',
};

const wrap = { overflowWrap: 'anywhere' } as const;

export interface WooCommerceCardProps {
  categoryId: string;
  woocommerce: WooCommerceConnectionJson | undefined;
  /** Sessions come from a connected Google Analytics 4 property instead. */
  sessionsFromGA4?: boolean;
}

/** The WooCommerce connection: connect by the store's address, watch the import, sync, disconnect. */
export function WooCommerceCard({ categoryId, woocommerce, sessionsFromGA4 = false }: WooCommerceCardProps) {
  return (
    <section className="u-card" aria-labelledby="woocommerce-title">
      <h2 id="woocommerce-title">WooCommerce</h2>
      {woocommerce?.status === 'CONNECTED' ? (
        <Connected categoryId={categoryId} woocommerce={woocommerce} sessionsFromGA4={sessionsFromGA4} />
      ) : (
        <>
          <p className="u-muted">
            Connect your WooCommerce store and Uplift imports your orders and refunds and counts your products and
            customers, then keeps them up to date.
          </p>
          <ConnectForm categoryId={categoryId} />
        </>
      )}
    </section>
  );
}

/** The store-address form; on success the browser goes to the store to approve Uplift. */
function ConnectForm({ categoryId }: { categoryId: string }) {
  const [storeUrl, setStoreUrl] = useState('');
  const [leaving, setLeaving] = useState(false);
  const [noRedirect, setNoRedirect] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const connect = useStartWooCommerceConnect();
  const error = connect.isError ? serverMessage(connect.error, UNKNOWN_ERROR_MESSAGE) : noRedirect && UNKNOWN_ERROR_MESSAGE;

  // Back from the store's page may restore this one from the back-forward cache, spinner and all.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  // A refused address is most often mistyped: the cursor goes back to it, with the reason read out.
  useEffect(() => {
    if (error) form.current?.querySelector('input')?.focus();
  }, [error]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = storeUrl.trim();
    if (!address) return;
    setNoRedirect(false);
    connect.mutate(
      { categoryId, storeUrl: address },
      {
        onSuccess: ({ redirectUrl }) => {
          if (!redirectUrl) {
            setNoRedirect(true);
            return;
          }
          // The button keeps its spinner until the browser has left for the store.
          setLeaving(true);
          browser.assign(redirectUrl);
        },
      },
    );
  };

  return (
    <form ref={form} onSubmit={submit} noValidate style={{ maxWidth: '40rem' }}>
      <TextField
        label="Store address"
        type="text"
        inputMode="url"
        autoComplete="url"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="https://yourstore.com"
        value={storeUrl}
        onChange={(event) => {
          setStoreUrl(event.target.value);
          if (connect.isError) connect.reset();
          setNoRedirect(false);
        }}
        error={error}
        action={
          <Button type="submit" loading={connect.isPending || leaving} disabled={!storeUrl.trim()}>
            Connect WooCommerce
          </Button>
        }
      />
    </form>
  );
}

function Connected({
  categoryId,
  woocommerce,
  sessionsFromGA4,
}: {
  categoryId: string;
  woocommerce: WooCommerceConnectionJson;
  sessionsFromGA4: boolean;
}) {
  const sync = useSyncWooCommerce();
  const disconnect = useDisconnectWooCommerce();
  const [confirming, setConfirming] = useState(false);
  const syncing = isWooCommerceSyncing(woocommerce);
  const failed = woocommerce.sync?.phase === 'FAILED';
  const runSync = () => sync.mutate(categoryId);
  const address = woocommerce.storeUrl ? woocommerce.storeUrl.replace(/^https?:\/\//, '') : '';

  return (
    <>
      <p>
        <span className="u-badge u-badge--fixed">Connected</span>{' '}
        <strong style={wrap}>{woocommerce.name || address}</strong>
      </p>
      {address && woocommerce.name && (
        <p className="u-muted" style={wrap}>
          {address}
        </p>
      )}
      {(woocommerce.currency || woocommerce.timezone) && (
        <p>
          {woocommerce.currency && <>Currency: {woocommerce.currency}</>}
          {woocommerce.currency && woocommerce.timezone && ' · '}
          {woocommerce.timezone && <span style={wrap}>Time zone: {canonicalTimeZone(woocommerce.timezone)}</span>}
        </p>
      )}

      <p>In Uplift: {storeCounts(woocommerce.stored)}</p>
      {syncing ? (
        <SyncProgress platform="WooCommerce" phaseLabels={PHASE_LABELS} sync={woocommerce.sync} />
      ) : failed ? (
        <SyncFailed platform="WooCommerce" sync={woocommerce.sync} retrying={sync.isPending} onRetry={runSync} />
      ) : (
        <SyncDone sync={woocommerce.sync} />
      )}

      <p className="u-muted">
        {sessionsFromGA4
          ? 'Sessions and conversion rate: from Google Analytics 4 (WooCommerce does not share them).'
          : 'Sessions and conversion rate: not available, WooCommerce does not share them.'}
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
        platform="WooCommerce"
        disconnect={disconnect}
        storeName={woocommerce.name || address || 'your WooCommerce store'}
      />
    </>
  );
}
