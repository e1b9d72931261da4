/**
 * Leaving the page, behind one object so tests can replace it (jsdom's
 * window.location cannot be spied on).
 */
export const browser = {
  assign: (url: string): void => window.location.assign(url),
};
