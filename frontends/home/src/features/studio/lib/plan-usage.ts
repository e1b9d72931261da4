import type { GetStudioPlanResponseJson } from '@uplift/platform';

/** How close a free plan is to its month's limits: the usage note's colour (plain, amber, red). */
export type UsageLevel = 'plenty' | 'low' | 'out';

/** Near the limit: at most a fifth of the month's allowance left, and always the last one. */
function isLow(left: number, perMonth: number): boolean {
  return left <= Math.max(1, Math.floor(perMonth / 5));
}

/** A paid plan, or one without limits (-1), is never near them. */
export function usageLevel(plan: GetStudioPlanResponseJson): UsageLevel {
  if (plan.paid) return 'plenty';
  const quotas = [
    { left: plan.downloadsLeft ?? 0, perMonth: plan.downloadsPerMonth ?? 0 },
    { left: plan.jobsLeft ?? 0, perMonth: plan.jobsPerMonth ?? 0 },
  ].filter((q) => q.left >= 0 && q.perMonth >= 0);
  if (quotas.some((q) => q.left === 0)) return 'out';
  if (quotas.some((q) => isLow(q.left, q.perMonth))) return 'low';
  return 'plenty';
}

/**
 * What a free plan's download buttons say before they are pressed: how many
 * of the month's downloads are left, or that none are. Null when downloads
 * are not limited.
 */
export function downloadAllowance(plan: GetStudioPlanResponseJson | undefined): string | null {
  if (!plan || plan.paid) return null;
  const left = plan.downloadsLeft ?? 0;
  const perMonth = plan.downloadsPerMonth ?? 0;
  if (left < 0 || perMonth < 0) return null;
  if (left === 0) return `You have used this month's ${perMonth} free downloads: upgrade to download more.`;
  return `${left} of ${perMonth} free downloads left this month; each download uses one.`;
}
