import type { StudioPath } from '../features/product-link/product-link';

/** The product studio's address for `?product=<id>` (the studio route in routes.tsx). */
export const STUDIO_PATH: StudioPath = (id) => `/studio?product=${encodeURIComponent(id)}`;
