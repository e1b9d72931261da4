/**
 * Product analytics events. Any app (shell or remote) calls
 * trackEvent; nothing leaves the browser until the visitor has agreed in the
 * consent banner, when the shell connects a sink. Events before that are
 * dropped, not queued: they were made without consent.
 *
 * Names follow the analytics service's recommended events where one exists
 * (sign_up, login, begin_checkout); the rest are ours.
 */
export type AnalyticsEventName =
  | 'sign_up'
  | 'login'
  | 'website_saved'
  | 'review_viewed'
  | 'idea_opened'
  | 'begin_checkout'
  | 'plan_changed';

export type AnalyticsParams = Record<string, string | number | boolean>;

export type AnalyticsSink = (name: AnalyticsEventName, params: AnalyticsParams) => void;

let sink: AnalyticsSink | null = null;

/** Sends an event when the visitor has consented; otherwise does nothing. */
export function trackEvent(name: AnalyticsEventName, params: AnalyticsParams = {}): void {
  try {
    sink?.(name, params);
  } catch (error) {
    // Analytics never breaks the product.
    console.info('analytics event not sent', error);
  }
}

/** For the shell: connects (or, with null, disconnects) where events go. */
export function setAnalyticsSink(next: AnalyticsSink | null): void {
  sink = next;
}
