import { loadScript, whenIdle } from './load-script';

/**
 * The identity verification widget: Stripe Identity's modal through Stripe.js
 * (which Stripe requires to be loaded from js.stripe.com, never bundled). The
 * script is fetched when the person asks to verify, not before.
 */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3';

interface StripeJs {
  verifyIdentity(clientSecret: string): Promise<{ error?: { code?: string; message?: string } }>;
}

declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

export type VerificationOutcome = { status: 'submitted' } | { status: 'cancelled' } | { status: 'failed'; message: string };

export const IDENTITY_WIDGET_UNAVAILABLE = 'Identity verification could not be opened. Please check your connection and try again.';

/** Opens Stripe's verification modal for the session; resolves when the person closes it. */
export async function openIdentityVerification(publishableKey: string, clientSecret: string): Promise<VerificationOutcome> {
  try {
    await whenIdle();
    await loadScript(STRIPE_JS_URL);
  } catch {
    return { status: 'failed', message: IDENTITY_WIDGET_UNAVAILABLE };
  }
  if (!window.Stripe) return { status: 'failed', message: IDENTITY_WIDGET_UNAVAILABLE };
  const { error } = await window.Stripe(publishableKey).verifyIdentity(clientSecret);
  if (!error) return { status: 'submitted' };
  if (error.code === 'session_cancelled') return { status: 'cancelled' };
  return { status: 'failed', message: error.message || IDENTITY_WIDGET_UNAVAILABLE };
}
