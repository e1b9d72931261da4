import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  isShopifySyncing,
  isWooCommerceSyncing,
  useCategoryId,
  useConnections,
  type ShopifyConnectionJson,
  type WooCommerceConnectionJson,
} from '@uplift/platform';

const MESSAGE_PARAM = 'message';

/**
 * Each platform's approval comes back to /connections?<param>=connected, or
 * ?<param>=error&message=…; the note names the platform and follows its store.
 */
const PLATFORMS = {
  shopify: {
    name: 'Shopify',
    store: (data) => data?.shopify,
    syncing: (data) => isShopifySyncing(data?.shopify),
  },
  woocommerce: {
    name: 'WooCommerce',
    store: (data) => data?.woocommerce,
    syncing: (data) => isWooCommerceSyncing(data?.woocommerce),
  },
  ga4: {
    name: 'Google Analytics 4',
    store: () => undefined,
    syncing: () => false,
    connected: 'Google Analytics 4 is connected. Pick your store\u2019s property below.',
  },
} satisfies Record<string, Platform>;

type Store = ShopifyConnectionJson | WooCommerceConnectionJson;
type Connections = { shopify?: ShopifyConnectionJson; woocommerce?: WooCommerceConnectionJson } | undefined;

interface Platform {
  name: string;
  store: (data: Connections) => Store | undefined;
  syncing: (data: Connections) => boolean;
  /** The note once connected, for a platform that imports no orders (Google Analytics 4). */
  connected?: string;
}

/**
 * The note follows the import it announces: while the sync runs it says so,
 * and once it has ended it says how (never "Importing…" over a finished import).
 */
function connectedNote(platform: string, store: Store | undefined, syncing: boolean): string {
  if (!store || syncing) return `Your ${platform} store is connected. Importing your orders…`;
  if (store.sync?.phase === 'FAILED') return `Your ${platform} store is connected, but the import stopped: see why below.`;
  return store.sync?.phase === 'DONE' || store.sync?.lastSyncedAt
    ? `Your ${platform} store is connected and its orders are imported.`
    : `Your ${platform} store is connected.`;
}

type Note = { kind: 'connected' } | { kind: 'error'; message: string };

function readReturn(search: string, param: string, platform: string): Note | null {
  const params = new URLSearchParams(search);
  const result = params.get(param);
  if (result === 'connected') return { kind: 'connected' };
  if (result === 'error') {
    return { kind: 'error', message: params.get(MESSAGE_PARAM)?.trim() || `${platform} did not connect your store. Please try again.` };
  }
  return null;
}

/**
 * The note for the return from a platform's approval: read once from the
 * address, which then loses the parameters (replaced, so Back does not bring
 * the note again).
 */
export function StoreReturnNote({ param }: { param: keyof typeof PLATFORMS }) {
  const platform: Platform = PLATFORMS[param];
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const [note, setNote] = useState(() => readReturn(search, param, platform.name));
  const { categoryId } = useCategoryId();
  const connections = useConnections(note?.kind === 'connected' ? categoryId : undefined);

  useEffect(() => {
    const params = new URLSearchParams(search);
    if (!params.has(param)) return;
    params.delete(param);
    params.delete(MESSAGE_PARAM);
    const rest = params.toString();
    navigate({ pathname, search: rest ? `?${rest}` : '', hash }, { replace: true });
  }, [param, pathname, search, hash, navigate]);

  if (!note) return null;
  const dismiss = (
    <button type="button" className="u-link-btn" style={{ color: 'inherit', flex: 'none' }} onClick={() => setNote(null)}>
      Dismiss
    </button>
  );
  return note.kind === 'connected' ? (
    <div role="status" className="u-note" style={noteStyle}>
      <span style={{ minWidth: 0 }}>
        {platform.connected ??
          connectedNote(platform.name, platform.store(connections.data), platform.syncing(connections.data))}
      </span>
      {dismiss}
    </div>
  ) : (
    <div role="alert" className="u-alert" style={noteStyle}>
      <span style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{note.message}</span>
      {dismiss}
    </div>
  );
}

const noteStyle = { display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: '1rem' } as const;
