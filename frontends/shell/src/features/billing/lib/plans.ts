import { type CreateStripeCheckoutBody, type SubscriptionTiersJson } from '@uplift/platform';
import { publicPlans, type Plan } from '@uplift/platform/plans';
import { currentTierId, type MaybeBillingInfo } from './tier';

export { formatMonthlyAmount, type Plan } from '@uplift/platform/plans';

// The tier rules use-checkout-return needs on every page live in tier.ts, so
// the rest of this file loads with the upgrade dialog.
export { currentTierId, isPaidTier, planDialogTitle, type MaybeBillingInfo } from './tier';
/**
 * The cards to show: hidden tiers dropped, sorted by sortOrder (ties by id, so
 * the order is stable). Manually set billing shows only that tier, even a hidden
 * one, because it is what the user has.
 */
export function visiblePlans(tiers: SubscriptionTiersJson, billingInfo: MaybeBillingInfo): Plan[] {
  if (billingInfo?.isManuallySet) {
    const tierId = currentTierId(billingInfo);
    return Object.entries(tiers)
      .map(([id, tier]) => ({ id, tier }))
      .filter((plan) => plan.id === tierId);
  }
  return publicPlans(tiers);
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
