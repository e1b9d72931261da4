/**
 * The page-leaving side effects, behind one object so tests can replace them
 * (jsdom's window.location cannot be spied on).
 */
export const browser = {
  currentUrl: (): string => window.location.href,
  assign: (url: string): void => window.location.assign(url),
};
