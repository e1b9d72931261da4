import { describe, expect, it } from 'vitest';
import type { SubscriptionTiersJson } from '@uplift/platform';
import {
  checkoutBody,
  checkoutReferralId,
  checkoutReturnUrls,
  currentTierId,
  formatMonthlyAmount,
  isPaidTier,
  isPurchasable,
  visiblePlans,
} from './plans';

const tiers: SubscriptionTiersJson = {
  pro: { name: 'Pro', sortOrder: 2, prices: { monthly: { amount: 2900, stripeId: 'price_pro' } } },
  legacy: { name: 'Legacy', sortOrder: 0, hidden: true, prices: { monthly: { amount: 990, stripeId: 'price_legacy' } } },
  free: { name: 'Free', sortOrder: 1, prices: { monthly: { amount: 0 } } },
  team: { name: 'Team', sortOrder: 3, prices: { monthly: { amount: 4950, stripeId: 'price_team' } } },
};

describe('visiblePlans', () => {
  it('sorts by sortOrder and leaves hidden tiers out', () => {
    expect(visiblePlans(tiers, null).map((plan) => plan.id)).toEqual(['free', 'pro', 'team']);
  });

  it('treats a missing sortOrder as 0 (proto3 JSON omits zero)', () => {
    const plans = visiblePlans({ b: { name: 'B', sortOrder: 1 }, a: { name: 'A' } }, undefined);
    expect(plans.map((plan) => plan.id)).toEqual(['a', 'b']);
  });

  it('shows only the manually set tier, even a hidden one', () => {
    expect(visiblePlans(tiers, { tier: 'legacy', isManuallySet: true }).map((plan) => plan.id)).toEqual(['legacy']);
    expect(visiblePlans(tiers, { tier: 'pro', isManuallySet: true }).map((plan) => plan.id)).toEqual(['pro']);
  });

  it('shows every visible tier for billing that Stripe set', () => {
    expect(visiblePlans(tiers, { tier: 'pro' })).toHaveLength(3);
  });
});

describe('tiers', () => {
  it("reads null or absent billing info as 'free'", () => {
    expect(currentTierId(null)).toBe('free');
    expect(currentTierId(undefined)).toBe('free');
    expect(currentTierId({})).toBe('free');
    expect(currentTierId({ tier: 'pro' })).toBe('pro');
  });

  it("counts every tier but 'free' as paid", () => {
    expect(isPaidTier('free')).toBe(false);
    expect(isPaidTier('pro')).toBe(true);
  });

  it('can buy only tiers with a monthly Stripe price', () => {
    expect(isPurchasable({ id: 'free', tier: tiers.free! })).toBe(false);
    expect(isPurchasable({ id: 'pro', tier: tiers.pro! })).toBe(true);
  });
});

describe('formatMonthlyAmount', () => {
  it('divides cents by 100 and shows cents only when there are any', () => {
    expect(formatMonthlyAmount(2900)).toBe('$29');
    expect(formatMonthlyAmount(4950)).toBe('$49.50');
    expect(formatMonthlyAmount(999)).toBe('$9.99');
    expect(formatMonthlyAmount(0)).toBe('$0');
    expect(formatMonthlyAmount(undefined)).toBe('$0');
    expect(formatMonthlyAmount(129900)).toBe('$1,299');
  });
});

describe('checkout', () => {
  it("falls back to a timestamped 'checkout_' referral id", () => {
    expect(checkoutReferralId(undefined, 1700000000000)).toBe('checkout_1700000000000');
    expect(checkoutReferralId('', 5)).toBe('checkout_5');
    expect(checkoutReferralId('ref_abc', 5)).toBe('ref_abc');
    expect(checkoutReferralId(undefined)).toMatch(/^checkout_\d{13}$/);
  });

  it('returns to this page without the one-shot parameters', () => {
    expect(checkoutReturnUrls('https://app.test/analytics?showTrialDialog=true&tab=2#x')).toEqual({
      successUrl: 'https://app.test/analytics?tab=2&checkout=success',
      cancelUrl: 'https://app.test/analytics?tab=2',
    });
  });

  it('sends the monthly price with freeTrial false', () => {
    expect(
      checkoutBody({
        plan: { id: 'pro', tier: tiers.pro! },
        customerEmail: 'jane@example.com',
        currentUrl: 'https://app.test/',
        now: 42,
      }),
    ).toEqual({
      priceId: 'price_pro',
      customerEmail: 'jane@example.com',
      freeTrial: false,
      successUrl: 'https://app.test/?checkout=success',
      cancelUrl: 'https://app.test/',
      forMetricsProduct: true,
      referralId: 'checkout_42',
    });
  });
});
