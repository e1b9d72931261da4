/** What a link into the studio for one product says, wherever a product is named. */
export const STUDIO_PHOTO_LINK_TEXT = 'Make a studio photo';

/**
 * The studio's address, opened on a product when one is given. `product` is
 * whatever names it where the link is: the catalogue's id (or Shopify's
 * gid://shopify/Product/<id>), the product page's address, or the product's
 * name (orders and ideas know only that); the studio finds it in the
 * website's catalogue.
 */
export function studioPath(product?: string): string {
  const named = product?.trim();
  // The product studio is a page of the home remote.
  return named ? `/studio?product=${encodeURIComponent(named)}` : '/studio';
}
