import { useEffect, useState } from 'react';
import { browser, Button, ErrorBanner, serverMessage, Spinner, UNKNOWN_ERROR_MESSAGE, useStoreFormat, type GA4ConnectionJson } from '@uplift/platform';
import { useDisconnectGA4, useGA4Properties, useSelectGA4Property, useStartGA4Connect, useSyncGA4 } from '@uplift/platform/connections';
import { DisconnectDialog } from './store-sync';
import { formatWhen } from '../lib/format';

const wrap = { overflowWrap: 'anywhere' } as const;

export interface GA4CardProps {
  categoryId: string;
  ga4: GA4ConnectionJson | undefined;
  /** A Shopify store that shares sessions is connected: the owner chooses whose sessions count. */
  shopifySessions: boolean;
}

/**
 * Google Analytics 4: connect with Google, pick a property, see how fresh its
 * numbers are and what GA4 says of them; disconnect revokes Uplift's access.
 */
export function GA4Card({ categoryId, ga4, shopifySessions }: GA4CardProps) {
  const status = ga4?.status ?? 'NOT_CONNECTED';
  return (
    <section className="u-card" aria-labelledby="ga4-title">
      <h2 id="ga4-title">Google Analytics 4</h2>
      {status === 'CONNECTED' && ga4 ? (
        <Connected categoryId={categoryId} ga4={ga4} shopifySessions={shopifySessions} />
      ) : status === 'PICK_PROPERTY' ? (
        <PickProperty categoryId={categoryId} shopifySessions={shopifySessions} />
      ) : status === 'REAUTHORIZE' ? (
        <>
          <ErrorBanner message={ga4?.error || 'Google no longer accepts Uplift\u2019s access. Reconnect to go on.'} />
          <ConnectButton categoryId={categoryId} label="Reconnect" />
        </>
      ) : (
        <>
          <p className="u-muted">
            Connect Google Analytics 4 and Uplift reads your store&rsquo;s daily sessions and purchases, so Analytics
            can show your conversion rate. Uplift only reads; it never changes your Analytics.
          </p>
          <ConnectButton categoryId={categoryId} label="Connect with Google" />
        </>
      )}
    </section>
  );
}

/** Starts Google's consent: the browser leaves for Google and comes back to Connections. */
function ConnectButton({ categoryId, label }: { categoryId: string; label: string }) {
  const connect = useStartGA4Connect();
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);
  return (
    <>
      <Button
        loading={connect.isPending || leaving}
        onClick={() =>
          connect.mutate(categoryId, {
            onSuccess: ({ redirectUrl }) => {
              if (!redirectUrl) return;
              setLeaving(true);
              browser.assign(redirectUrl);
            },
          })
        }
      >
        {label}
      </Button>
      <ErrorBanner message={connect.isError && serverMessage(connect.error, UNKNOWN_ERROR_MESSAGE)} style={{ marginTop: '.75rem' }} />
    </>
  );
}

/** The properties the Google user can read, to pick the store's. */
function PickProperty({
  categoryId,
  shopifySessions,
  current,
  onDone,
}: {
  categoryId: string;
  shopifySessions: boolean;
  current?: string;
  onDone?: () => void;
}) {
  const properties = useGA4Properties(categoryId, true);
  const select = useSelectGA4Property();
  const [chosen, setChosen] = useState(current ?? '');
  const list = properties.data?.properties ?? [];

  if (properties.isPending) {
    return (
      <p>
        <Spinner /> Loading your Google Analytics properties…
      </p>
    );
  }
  if (properties.isError) {
    return (
      <>
        <ErrorBanner
          message={`We couldn't list your Google Analytics properties. ${serverMessage(properties.error, UNKNOWN_ERROR_MESSAGE)}`}
        />
        <ConnectButton categoryId={categoryId} label="Reconnect" />
      </>
    );
  }
  if (list.length === 0) {
    return (
      <>
        <p role="alert" className="u-alert">
          This Google account has no Google Analytics 4 properties. Connect with the Google account that owns your
          store&rsquo;s property.
        </p>
        <ConnectButton categoryId={categoryId} label="Connect with another Google account" />
      </>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!chosen) return;
        select.mutate({ categoryId, propertyId: chosen }, { onSuccess: () => onDone?.() });
      }}
    >
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend>Pick your store&rsquo;s Google Analytics 4 property</legend>
        {list.map((p) => (
          <label key={p.propertyId} style={{ display: 'block', margin: '.35rem 0', ...wrap }}>
            <input
              type="radio"
              name="ga4-property"
              value={p.propertyId}
              checked={chosen === p.propertyId}
              onChange={() => setChosen(p.propertyId ?? '')}
            />{' '}
            {p.displayName} <span className="u-muted">({p.accountName}, {p.propertyId})</span>
          </label>
        ))}
      </fieldset>
      {shopifySessions && (
        <p className="u-muted">Your Shopify store shares sessions: Uplift keeps Shopify&rsquo;s unless you choose GA4&rsquo;s below.</p>
      )}
      <div className="inline-form">
        <Button type="submit" loading={select.isPending} disabled={!chosen}>
          Use this property
        </Button>
        {onDone && (
          <Button variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
      <ErrorBanner message={select.isError && serverMessage(select.error, UNKNOWN_ERROR_MESSAGE)} style={{ marginTop: '.75rem' }} />
    </form>
  );
}

function Connected({ categoryId, ga4, shopifySessions }: { categoryId: string; ga4: GA4ConnectionJson; shopifySessions: boolean }) {
  const sync = useSyncGA4();
  const select = useSelectGA4Property();
  const disconnect = useDisconnectGA4();
  const [confirming, setConfirming] = useState(false);
  const [changing, setChanging] = useState(false);
  const format = useStoreFormat();
  const refreshed = formatWhen(ga4.lastRefreshedAt, format);
  const name = ga4.propertyName || `property ${ga4.propertyId}`;
  const fromGA4 = ga4.sessionsSource !== 'shopify';

  if (changing) {
    return <PickProperty categoryId={categoryId} shopifySessions={shopifySessions} current={ga4.propertyId} onDone={() => setChanging(false)} />;
  }
  return (
    <>
      <p>
        <span className="u-badge u-badge--fixed">Connected</span> <strong style={wrap}>{name}</strong>
      </p>
      <p className="u-muted">
        Property {ga4.propertyId}
        {ga4.timezone && <> · Time zone: {ga4.timezone}</>}
        {ga4.currency && <> · Currency: {ga4.currency}</>}
      </p>
      <p>{refreshed ? `Last refreshed ${refreshed}` : 'Reading your Analytics for the first time…'}</p>
      {ga4.sampled && <p className="u-note">Google Analytics 4 says its data is sampled: sessions and purchases are estimates.</p>}
      {ga4.thresholded && (
        <p className="u-note">
          Google Analytics 4 says its data is thresholded: days with too few visitors are withheld, so they have no sessions here.
        </p>
      )}
      {ga4.error && <ErrorBanner message={ga4.error} />}
      <p>
        {fromGA4
          ? 'Sessions and conversion rate in Analytics come from this property.'
          : 'Sessions and conversion rate in Analytics come from Shopify.'}
      </p>

      <div className="inline-form">
        <Button variant="secondary" loading={sync.isPending} onClick={() => sync.mutate(categoryId)}>
          Refresh now
        </Button>
        {shopifySessions && (
          <Button
            variant="secondary"
            loading={select.isPending}
            onClick={() =>
              select.mutate({ categoryId, propertyId: ga4.propertyId ?? '', sessionsSource: fromGA4 ? 'shopify' : 'ga4' })
            }
          >
            {fromGA4 ? 'Use Shopify\u2019s sessions' : 'Use GA4\u2019s sessions'}
          </Button>
        )}
        <Button variant="ghost" onClick={() => setChanging(true)}>
          Change property
        </Button>
        <Button variant="ghost" onClick={() => setConfirming(true)}>
          Disconnect
        </Button>
      </div>
      <ErrorBanner
        message={
          (sync.isError && serverMessage(sync.error, UNKNOWN_ERROR_MESSAGE)) ||
          (select.isError && serverMessage(select.error, UNKNOWN_ERROR_MESSAGE))
        }
        style={{ marginTop: '.75rem' }}
      />

      <DisconnectDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        categoryId={categoryId}
        platform="Google Analytics 4"
        disconnect={disconnect}
        storeName={name}
        description={`Uplift gives back its access to ${name} at Google and stops reading it. The sessions and purchases already read stay.`}
      />
    </>
  );
}
