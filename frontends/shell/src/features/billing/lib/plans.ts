import {
  CENTS_PER_UNIT,
  type CreateStripeCheckoutBody,
  type SubscriptionTierJson,
  type SubscriptionTiersJson,
} from '@uplift/platform';
import { currentTierId, type MaybeBillingInfo } from './tier';

/** A tier with its id, as the upgrade dialog lists it. */
export interface Plan {
  id: string;
  tier: SubscriptionTierJson;
}

// The tier rules use-checkout-return needs on every page live in tier.ts, so
// the rest of this file loads with the upgrade dialog.
export { currentTierId, isPaidTier, planDialogTitle, type MaybeBillingInfo } from './tier';
/**
 * The cards to show: hidden tiers dropped, sorted by sortOrder (ties by id, so
 * the order is stable). Manually set billing shows only that tier, even a hidden
 * one, because it is what the user has.
 */
export function visiblePlans(tiers: SubscriptionTiersJson, billingInfo: MaybeBillingInfo): Plan[] {
  const plans = Object.entries(tiers).map(([id, tier]) => ({ id, tier }));
  if (billingInfo?.isManuallySet) {
    const tierId = currentTierId(billingInfo);
    return plans.filter((plan) => plan.id === tierId);
  }
  return plans
    .filter((plan) => !plan.tier.hidden)
    .sort((a, b) => (a.tier.sortOrder ?? 0) - (b.tier.sortOrder ?? 0) || a.id.localeCompare(b.id));
}

/** Cents to dollars, with cents shown only when there are any: 2900 → "$29", 1950 → "$19.50". */
export function formatMonthlyAmount(amountCents: number | undefined): string {
  const cents = amountCents ?? 0;
  const whole = cents % CENTS_PER_UNIT === 0;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / CENTS_PER_UNIT);
}

/** Without referral tracking the backend still wants an id: a timestamped 'checkout_' one. */
export function checkoutReferralId(tracked: string | undefined, now: number = Date.now()): string {
  return tracked || `checkout_${now}`;
}

/** Query parameters that must not survive a return from Stripe (they would force the dialog again). */
const ONE_SHOT_PARAMS = ['showTrialDialog', 'requirePayment', 'checkout'];

/** Where Stripe sends the browser back: this page, marked as a success or not. */
export function checkoutReturnUrls(currentUrl: string): { successUrl: string; cancelUrl: string } {
  const url = new URL(currentUrl);
  for (const name of ONE_SHOT_PARAMS) url.searchParams.delete(name);
  url.hash = '';
  const cancelUrl = url.toString();
  url.searchParams.set('checkout', 'success');
  return { successUrl: url.toString(), cancelUrl };
}

/** The checkout request for a plan (spec section 5: monthly price only, freeTrial false). */
export function checkoutBody(input: {
  plan: Plan;
  customerEmail: string;
  currentUrl: string;
  referralId?: string;
  now?: number;
}): CreateStripeCheckoutBody {
  return {
    priceId: input.plan.tier.prices?.monthly?.stripeId ?? '',
    customerEmail: input.customerEmail,
    freeTrial: false,
    ...checkoutReturnUrls(input.currentUrl),
    forMetricsProduct: true,
    referralId: checkoutReferralId(input.referralId, input.now),
  };
}

/** A tier can be bought only when it has a monthly Stripe price (the free tier has none). */
export function isPurchasable(plan: Plan): boolean {
  return Boolean(plan.tier.prices?.monthly?.stripeId);
}
