import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '@uplift/platform';

/** `?product=`: a product to open in the product studio (spec section 2). */
export const PRODUCT_PARAM = 'product';

/** Where the product is kept while the visitor signs in or the studio is not there yet. */
export const PENDING_PRODUCT_KEY = 'pendingProduct';

/**
 * The product studio's address for a product, or null while the shell has no
 * studio route. The studio sets this when it registers its route; until then
 * a `product` parameter is kept (not lost, not acted on).
 */
export type StudioPath = ((productId: string) => string) | null;

/** The product id in the address, or the one kept from an earlier visit. */
export function pendingProduct(search: string): string | null {
  const fromAddress = new URLSearchParams(search).get(PRODUCT_PARAM)?.trim();
  if (fromAddress) return fromAddress;
  try {
    return sessionStorage.getItem(PENDING_PRODUCT_KEY);
  } catch {
    return null;
  }
}

/**
 * Keeps `?product=` through sign-in and sign-up (which may leave the page it
 * came on), and once someone is signed in and the studio exists, opens it on
 * that product.
 */
export function useProductLink(studioPath: StudioPath): void {
  const session = useSession();
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const product = pendingProduct(search);
  const signedIn = session.status === 'signedIn';

  useEffect(() => {
    if (!product) return;
    const target = signedIn && studioPath ? studioPath(product) : null;
    try {
      if (target) sessionStorage.removeItem(PENDING_PRODUCT_KEY);
      else sessionStorage.setItem(PENDING_PRODUCT_KEY, product);
    } catch {
      // Storage may be off (private mode): the address still carries it.
    }
    if (target && `${pathname}${search}` !== target) navigate(target, { replace: true });
  }, [product, signedIn, studioPath, pathname, search, navigate]);
}
