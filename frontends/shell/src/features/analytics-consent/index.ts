export { ConsentBanner } from './components/consent-banner';
export { useAnalyticsConsent } from './components/use-analytics-consent';
