import { SCORE_THRESHOLDS } from '@uplift/platform';

/**
 * The score bands (spec section 9 thresholds): below LOW is poor, below MED is
 * low, below HIGH is medium, and HIGH or more is high.
 */
export type Band = 'poor' | 'low' | 'medium' | 'high';

const BANDS: readonly Band[] = ['poor', 'low', 'medium', 'high'];

export function bandForScore(score: number): Band {
  if (score < SCORE_THRESHOLDS.LOW) return 'poor';
  if (score < SCORE_THRESHOLDS.MED) return 'low';
  if (score < SCORE_THRESHOLDS.HIGH) return 'medium';
  return 'high';
}

/** The server's band when it is one we know, else the one the thresholds give. */
export function bandOf(band: string | undefined, score: number): Band {
  return (BANDS as readonly string[]).includes(band ?? '') ? (band as Band) : bandForScore(score);
}

/** "meta_description" → "Meta description": check ids read as words. */
export function humanize(id: string | undefined): string {
  const words = (id ?? '').replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '';
}

/** The review's groups in the order a store owner should look at them; unknown groups follow. */
export const GROUP_ORDER = ['search', 'speed', 'mobile', 'trust', 'conversion'] as const;

export function groupRank(group: string): number {
  const index = (GROUP_ORDER as readonly string[]).indexOf(group);
  return index === -1 ? GROUP_ORDER.length : index;
}
