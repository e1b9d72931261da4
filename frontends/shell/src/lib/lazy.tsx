import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';

/**
 * React.lazy for a module's named export: the code moves to a chunk of its
 * own, fetched the first time the component renders (not on first load).
 */
// `any` props: each named export keeps its own, which the returned component takes on.
export function lazyNamed<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

/**
 * Renders children (a lazily loaded dialog) from the first time open is true,
 * and keeps them mounted after, as if they had always been there: the dialog
 * keeps its state between openings and closes as before. Until then nothing
 * of it is fetched.
 */
export function WhenOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
