import { createContext, useContext, type ReactNode } from 'react';

/**
 * The optional third-party widgets' settings, as the shell read them from the
 * runtime configuration. Remotes never read the configuration themselves, so
 * they get these through context. A widget whose setting is missing is not
 * shown at all.
 */
export interface WidgetSettings {
  /** Customer reviews (Trustpilot's TrustBox): the business unit and the TrustBox template. */
  reviews?: { businessUnitId: string; templateId: string };
  /** Identity verification (Stripe Identity through Stripe.js): the publishable key. */
  stripePublishableKey?: string;
}

const WidgetSettingsContext = createContext<WidgetSettings>({});

export function WidgetSettingsProvider({ value, children }: { value: WidgetSettings; children: ReactNode }) {
  return <WidgetSettingsContext.Provider value={value}>{children}</WidgetSettingsContext.Provider>;
}

export function useWidgetSettings(): WidgetSettings {
  return useContext(WidgetSettingsContext);
}
