/**
 * The visitor's analytics choice, remembered in this browser. Nothing is sent
 * to the analytics service, and its script is not even requested, until the
 * choice is 'granted'.
 */
export type ConsentChoice = 'granted' | 'denied';

export const CONSENT_STORAGE_KEY = 'uplift-analytics-consent';

export function readConsent(): ConsentChoice | null {
  try {
    const stored = localStorage.getItem(CONSENT_STORAGE_KEY);
    return stored === 'granted' || stored === 'denied' ? stored : null;
  } catch {
    // Storage blocked: ask again next time, send nothing meanwhile.
    return null;
  }
}

export function writeConsent(choice: ConsentChoice): void {
  try {
    localStorage.setItem(CONSENT_STORAGE_KEY, choice);
  } catch {
    // Not remembered; this visit still honours the choice.
  }
}
