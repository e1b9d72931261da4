import { STORAGE_KEYS } from '@uplift/platform';

/**
 * The trial dialog rules (spec section 4): the address forces it, the choice is
 * stored so it survives sign-up and reloads, and billing info ends it.
 */

/** What we know of the user's billing: not loaded yet, none (free), or some plan. */
export type BillingState = 'unknown' | 'none' | 'present';

/** showTrialDialog=true forces the dialog; requirePayment=true leads to the same place. */
export function askedForTrial(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.get('showTrialDialog') === 'true' || params.get('requirePayment') === 'true';
}

/** Whether the stored flag should be set after this render. */
export function nextForced(stored: boolean, asked: boolean, billing: BillingState): boolean {
  // Billing info clears it; while billing is still unknown the request is kept.
  if (billing === 'present') return false;
  return stored || asked;
}

/** Open only while forced and billing info is known to be null. */
export function trialDialogOpen(forced: boolean, billing: BillingState): boolean {
  return forced && billing === 'none';
}

/** localStorage can throw (privacy modes, quota); the flag is then simply not kept. */
export const forcedTrialStore = {
  get(): boolean {
    try {
      return window.localStorage.getItem(STORAGE_KEYS.forceShowTrialDialog) === 'true';
    } catch {
      return false;
    }
  },
  set(forced: boolean): void {
    try {
      if (forced) window.localStorage.setItem(STORAGE_KEYS.forceShowTrialDialog, 'true');
      else window.localStorage.removeItem(STORAGE_KEYS.forceShowTrialDialog);
    } catch {
      // Not kept across reloads; the address still forces it this time.
    }
  },
};
