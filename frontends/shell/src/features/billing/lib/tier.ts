import { FREE_TIER_ID, type BillingInfoJson } from '@uplift/platform';

/** The proto's JSON may send billingInfo as null or leave it out; both mean 'free'. */
export type MaybeBillingInfo = BillingInfoJson | null | undefined;

export function currentTierId(billingInfo: MaybeBillingInfo): string {
  return billingInfo?.tier || FREE_TIER_ID;
}

/** Paid means a tier other than 'free' (spec section 6): those users may open the portal. */
export function isPaidTier(tierId: string): boolean {
  return tierId !== FREE_TIER_ID;
}

/**
 * What the plan dialog and its menu entry are called: a paying user has
 * nothing to upgrade to, so they see their plan.
 */
export function planDialogTitle(billingInfo: MaybeBillingInfo): string {
  return isPaidTier(currentTierId(billingInfo)) ? 'Your plan' : 'Upgrade plan';
}
