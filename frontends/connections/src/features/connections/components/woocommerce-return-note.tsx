import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isWooCommerceSyncing, useCategoryId, useConnections, type WooCommerceConnectionJson } from '@uplift/platform';

/** The store's approval comes back to /connections?woocommerce=connected, or ?woocommerce=error&message=…. */
const RETURN_PARAM = 'woocommerce';
const MESSAGE_PARAM = 'message';

export const WOOCOMMERCE_CONNECTED_NOTE = 'Your WooCommerce store is connected. Importing your orders…';
export const WOOCOMMERCE_IMPORTED_NOTE = 'Your WooCommerce store is connected and its orders are imported.';
export const WOOCOMMERCE_IMPORT_STOPPED_NOTE = 'Your WooCommerce store is connected, but the import stopped: see why below.';
const WOOCOMMERCE_ERROR_FALLBACK = 'WooCommerce did not connect your store. Please try again.';

/** As Shopify's note: it follows the import it announces, never "Importing…" over a finished one. */
function connectedNote(woocommerce: WooCommerceConnectionJson | undefined): string {
  if (!woocommerce || isWooCommerceSyncing(woocommerce)) return WOOCOMMERCE_CONNECTED_NOTE;
  if (woocommerce.sync?.phase === 'FAILED') return WOOCOMMERCE_IMPORT_STOPPED_NOTE;
  return woocommerce.sync?.phase === 'DONE' || woocommerce.sync?.lastSyncedAt
    ? WOOCOMMERCE_IMPORTED_NOTE
    : 'Your WooCommerce store is connected.';
}

type ReturnNote = { kind: 'connected' } | { kind: 'error'; message: string };

function readReturn(search: string): ReturnNote | null {
  const params = new URLSearchParams(search);
  const result = params.get(RETURN_PARAM);
  if (result === 'connected') return { kind: 'connected' };
  if (result === 'error') return { kind: 'error', message: params.get(MESSAGE_PARAM)?.trim() || WOOCOMMERCE_ERROR_FALLBACK };
  return null;
}

/**
 * The note for the return from the store: read once from the address, which
 * then loses the parameters (replaced, so Back does not bring the note again).
 */
export function WooCommerceReturnNote() {
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
      <span style={{ minWidth: 0 }}>{connectedNote(connections.data?.woocommerce)}</span>
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
