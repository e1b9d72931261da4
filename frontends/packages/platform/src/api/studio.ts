/**
 * Not in the package's index but its own entry (`@uplift/platform/studio`):
 * only the studio page (lazily loaded in Home) calls the studio, and the
 * index is in every first load (a shared singleton). The HTTP client comes
 * from the singleton by the package's name, as in `./connections`.
 */
export * from './studio-plan';
export * from './studio-jobs';
export * from './studio-images';
export * from './studio-results';
