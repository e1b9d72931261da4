export { UpgradePlanDialog } from './components/upgrade-plan-dialog';
export { useTrialDialog } from './lib/use-trial-dialog';
export { useCheckoutReturn } from './lib/use-checkout-return';
