import { useCallback, useEffect, useState } from 'react';
import { setAnalyticsSink } from '@uplift/platform';
import { readConsent, writeConsent, type ConsentChoice } from '../lib/consent';
import { startGtag } from '../lib/gtag';

/**
 * The analytics consent for the whole app: while the visitor has agreed,
 * trackEvent (any app) reaches the analytics service of measurementId;
 * otherwise nothing is sent or loaded.
 */
export function useAnalyticsConsent(measurementId: string) {
  const [choice, setChoice] = useState<ConsentChoice | null>(readConsent);

  useEffect(() => {
    if (choice !== 'granted') return;
    setAnalyticsSink(startGtag(measurementId));
    return () => setAnalyticsSink(null);
  }, [choice, measurementId]);

  const choose = useCallback((next: ConsentChoice) => {
    writeConsent(next);
    setChoice(next);
  }, []);

  return { choice, choose };
}
