import { loadScriptWhenIdle, type AnalyticsSink } from '@uplift/platform';

/**
 * The analytics service of the measurement id (Google Analytics 4 through
 * gtag.js, which Firebase's measurement ids belong to), set up the way its
 * own snippet does: calls go to `dataLayer`, which the script sends on once it
 * has loaded (lazily, after the first paint).
 */
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

export const gtagScriptUrl = (measurementId: string): string =>
  `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;

/** Starts analytics for measurementId (call only after consent) and returns where events go. */
export function startGtag(measurementId: string): AnalyticsSink {
  if (!window.gtag) {
    window.dataLayer = window.dataLayer ?? [];
    window.gtag = function gtag() {
      // gtag.js reads the arguments object itself, not an array copy.
      window.dataLayer!.push(arguments);
    };
    window.gtag('js', new Date());
    window.gtag('config', measurementId);
    void loadScriptWhenIdle(gtagScriptUrl(measurementId));
  }
  return (name, params) => window.gtag?.('event', name, params);
}
