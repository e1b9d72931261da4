import type { StudioPath } from '../features/product-link/product-link';

/**
 * The product studio's address for `?product=<id>`. Null until the studio's
 * route is registered in routes.tsx; then set it to
 * `(id) => \`/studio?product=${encodeURIComponent(id)}\``.
 */
export const STUDIO_PATH: StudioPath = null;
