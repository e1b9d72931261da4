import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isShopifySyncing, useCategoryId, useConnections, type ShopifyConnectionJson } from '@uplift/platform';

/** Shopify's approval comes back to /connections?shopify=connected, or ?shopify=error&message=…. */
const RETURN_PARAM = 'shopify';
const MESSAGE_PARAM = 'message';

export const SHOPIFY_CONNECTED_NOTE = 'Your Shopify store is connected. Importing your orders…';
export const SHOPIFY_IMPORTED_NOTE = 'Your Shopify store is connected and its orders are imported.';
export const SHOPIFY_IMPORT_STOPPED_NOTE = 'Your Shopify store is connected, but the import stopped: see why below.';

/**
 * The note follows the import it announces: while the sync runs it says so,
 * and once it has ended it says how (never "Importing…" over a finished import).
 */
function connectedNote(shopify: ShopifyConnectionJson | undefined): string {
  if (!shopify || isShopifySyncing(shopify)) return SHOPIFY_CONNECTED_NOTE;
  if (shopify.sync?.phase === 'FAILED') return SHOPIFY_IMPORT_STOPPED_NOTE;
  return shopify.sync?.phase === 'DONE' || shopify.sync?.lastSyncedAt ? SHOPIFY_IMPORTED_NOTE : 'Your Shopify store is connected.';
}
const SHOPIFY_ERROR_FALLBACK = 'Shopify did not connect your store. Please try again.';

type ReturnNote = { kind: 'connected' } | { kind: 'error'; message: string };

function readReturn(search: string): ReturnNote | null {
  const params = new URLSearchParams(search);
  const result = params.get(RETURN_PARAM);
  if (result === 'connected') return { kind: 'connected' };
  if (result === 'error') return { kind: 'error', message: params.get(MESSAGE_PARAM)?.trim() || SHOPIFY_ERROR_FALLBACK };
  return null;
}

/**
 * The note for the return from Shopify: read once from the address, which then
 * loses the parameters (replaced, so Back does not bring the note again).
 */
export function ShopifyReturnNote() {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const [note, setNote] = useState(() => readReturn(search));
  const { categoryId } = useCategoryId();
  const connections = useConnections(note?.kind === 'connected' ? categoryId : undefined);

  useEffect(() => {
    const params = new URLSearchParams(search);
    if (!params.has(RETURN_PARAM)) return;
    params.delete(RETURN_PARAM);
    params.delete(MESSAGE_PARAM);
    const rest = params.toString();
    navigate({ pathname, search: rest ? `?${rest}` : '', hash }, { replace: true });
  }, [pathname, search, hash, navigate]);

  if (!note) return null;
  const dismiss = (
    <button type="button" className="u-link-btn" style={{ color: 'inherit', flex: 'none' }} onClick={() => setNote(null)}>
      Dismiss
    </button>
  );
  return note.kind === 'connected' ? (
    <div role="status" className="u-note" style={noteStyle}>
      <span style={{ minWidth: 0 }}>{connectedNote(connections.data?.shopify)}</span>
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
