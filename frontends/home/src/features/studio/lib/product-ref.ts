import type { CatalogueProductJson } from '@uplift/platform';

const SHOPIFY_GID = 'gid://shopify/Product/';

/** Case, accents' composition and runs of spaces do not tell two names apart. */
function sameName(a: string, b: string): boolean {
  const fold = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');
  return fold(a) === fold(b);
}

/** A page address without its query, fragment or trailing slash, or null when it is not one. */
function pageOf(address: string): string | null {
  try {
    const url = new URL(address);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return `${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/**
 * The catalogue product that `?product=` names. Links into the studio name a
 * product by what they know of it: the catalogue's id or Shopify's gid
 * (a product picked before), the product page's address (a review finding),
 * or its name (orders, ideas and the daily report know only the title).
 * Tried in that order; a name must match exactly one product.
 */
export function findCatalogueProduct(products: CatalogueProductJson[], ref: string): CatalogueProductJson | undefined {
  const wanted = ref.trim();
  if (!wanted) return undefined;
  const id = wanted.startsWith(SHOPIFY_GID) ? wanted.slice(SHOPIFY_GID.length) : wanted;
  const byId = products.find((p) => p.id === id);
  if (byId) return byId;
  const page = pageOf(wanted);
  if (page) return products.find((p) => p.url && pageOf(p.url) === page);
  const named = products.filter((p) => p.name && sameName(p.name, wanted));
  return named.length === 1 ? named[0] : undefined;
}

/** Why `?product=` opened nothing, for the owner: a page or a name their website does not list. */
export function notInCatalogueMessage(ref: string): string {
  return pageOf(ref.trim())
    ? 'That page is not one of the product pages on your website. Pick the product below, or upload its photo.'
    : `“${ref.trim()}” is not among the products on your website. Pick it below under another name, or upload its photo.`;
}
