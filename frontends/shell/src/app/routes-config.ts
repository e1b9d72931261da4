import { studioPath, type RemoteName } from '@uplift/platform';
import type { StudioPath } from '../features/product-link/product-link';

/** The product studio's address for `?product=<id>` (the studio route in routes.tsx). */
export const STUDIO_PATH: StudioPath = studioPath;

/** A remote's page and the top-level path the shell mounts it under ('' is `/`). */
export interface RemotePage {
  path: string;
  remote: RemoteName;
  module: string;
}

/** The pages the remotes render (routes.tsx mounts them; startup fetches the one being opened). */
export const REMOTE_PAGES: readonly RemotePage[] = [
  { path: '', remote: 'home', module: './App' },
  // Home's other pages; exposed separately so each keeps relative routes under its prefix.
  { path: 'ideas', remote: 'home', module: './Ideas' },
  { path: 'website-score', remote: 'home', module: './WebsiteScore' },
  { path: 'studio', remote: 'home', module: './Studio' },
  { path: 'analytics', remote: 'analytics', module: './App' },
  { path: 'connections', remote: 'connections', module: './App' },
];

/** The remote page an address shows, if a remote shows it. */
export function remotePageFor(pathname: string): RemotePage | undefined {
  // Lower case: the router matches paths regardless of case.
  const first = pathname.toLowerCase().split('/').filter(Boolean)[0] ?? '';
  return REMOTE_PAGES.find((page) => page.path === first);
}
