import type { SubscriptionTierJson, SubscriptionTiersJson } from '../api/types';
import { CENTS_PER_UNIT } from '../constants';

/**
 * Not in the package's index but its own entry (`@uplift/platform/plans`):
 * only the plan dialog and the signed-out landing page show plans, and the
 * index is in every first load.
 */

/** A tier with its id, as plans are listed. */
export interface Plan {
  id: string;
  tier: SubscriptionTierJson;
}

/** The plans anyone may choose (spec section 2, dialog 5): hidden tiers dropped, by sortOrder (ties by id, so the order is stable). */
export function publicPlans(tiers: SubscriptionTiersJson): Plan[] {
  return Object.entries(tiers)
    .map(([id, tier]) => ({ id, tier }))
    .filter((plan) => !plan.tier.hidden)
    .sort((a, b) => (a.tier.sortOrder ?? 0) - (b.tier.sortOrder ?? 0) || a.id.localeCompare(b.id));
}

/** Cents to dollars (spec section 9), with cents shown only when there are any: 2900 → "$29", 1950 → "$19.50". */
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
