/**
 * Leaving the page, and where it is: behind one object so tests can replace
 * them (jsdom cannot navigate, and its window.location cannot be spied on).
 * One object for the shell and every remote (the platform is a singleton).
 */
export const browser = {
  currentUrl: (): string => window.location.href,
  /** A full page load: another site (Stripe, Shopify), or a path after a change that the whole app must read anew. */
  assign: (url: string): void => window.location.assign(url),
};
