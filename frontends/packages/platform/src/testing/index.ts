/**
 * The platform's test helpers (`@uplift/platform/testing`): tests only, never
 * from the package's index, so the apps' bundles carry neither Testing Library
 * nor vitest.
 */
export * from './render-with-providers';
export * from './fake-gateway';
export * from './described-by';
