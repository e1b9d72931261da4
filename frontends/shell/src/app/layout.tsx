import { useCallback, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { onOpenBusinessProfile, onOpenUpgradePlan, Toaster, useSession, useUser } from '@uplift/platform';
import { TopBar } from '../components/layout/top-bar';
import { AccountSettingsDialog } from '../features/account-settings/components/account-settings-dialog';
import { useIdentityReturn } from '../features/account-settings/lib/use-identity-return';
import { AuthControls } from '../features/auth';
import { useSiteUrlFromAddress } from '../features/business-profile/lib/site-url-from-address';
import { resetCodeFrom } from '../features/auth/lib/password-reset';
import { OnBehalfBanner } from '../features/on-behalf/components/on-behalf-banner';
import { useCheckoutReturn } from '../features/billing/lib/use-checkout-return';
import { planDialogTitle } from '../features/billing/lib/tier';
import { useTrialDialog } from '../features/billing/lib/use-trial-dialog';
import { useProductLink } from '../features/product-link/product-link';
import { useSupportChat } from '../features/support-chat';
import { ConsentBanner, useAnalyticsConsent } from '../features/analytics-consent';
import { useEnv } from '../lib/env-context';
import { lazyNamed, WhenOpened } from '../lib/lazy';
import { RouteErrorBoundary } from '../lib/route-error-boundary';
import { STUDIO_PATH } from './routes-config';

// Fetched when first opened, not with the first page.
const BusinessProfileDialog = lazyNamed(
  () => import('../features/business-profile/components/business-profile-dialog'),
  'BusinessProfileDialog',
);
const UpgradePlanDialog = lazyNamed(() => import('../features/billing/components/upgrade-plan-dialog'), 'UpgradePlanDialog');

/** Page frame: top bar, the routed page, toasts and the dialogs the menu opens. */
export function Layout() {
  const session = useSession();
  const env = useEnv();
  const [accountOpen, setAccountOpen] = useState(false);
  const openAccountSettings = useCallback(() => setAccountOpen(true), []);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [businessProfileOpen, setBusinessProfileOpen] = useState(false);
  // A website from the address that could not be saved: the dialog opens with it filled in.
  const [prefillWebsite, setPrefillWebsite] = useState<string | undefined>();
  const user = useUser(session.status === 'signedIn' ? session.user.uid : undefined);
  const trial = useTrialDialog();
  const checkoutReturn = useCheckoutReturn();
  useIdentityReturn(openAccountSettings);
  useProductLink(STUDIO_PATH);
  useSupportChat(env.chatAppId);
  const consent = useAnalyticsConsent(env.firebaseMeasurementId);
  useSiteUrlFromAddress((siteUrl) => {
    setPrefillWebsite(siteUrl);
    setBusinessProfileOpen(true);
  });
  // Remotes (e.g. Home's empty state) ask for the dialog with a DOM event; they cannot import the shell.
  useEffect(() => onOpenBusinessProfile(() => setBusinessProfileOpen(true)), []);
  useEffect(() => onOpenUpgradePlan(() => setUpgradeOpen(true)), []);

  const { pathname, search } = useLocation();

  // A Firebase reset link may land anywhere (its continue URL); the page that completes it is /reset-password.
  if (resetCodeFrom(search) && pathname !== '/reset-password') {
    return <Navigate to={`/reset-password${search}`} replace />;
  }
  // A blank grey screen until Firebase knows whether someone is signed in.
  if (session.status === 'unknown') return <div className="auth-pending" aria-busy="true" />;

  const closeUpgrade = () => {
    setUpgradeOpen(false);
    trial.dismiss();
    checkoutReturn.dismiss();
  };
  const confirming = checkoutReturn.confirmedTier !== null;
  const planOpen = upgradeOpen || trial.open || confirming;

  return (
    <>
      <TopBar
        marketingUrl={env.marketingUrl}
        actions={
          <AuthControls
            onOpenAccountSettings={() => setAccountOpen(true)}
            onOpenUpgradePlan={() => setUpgradeOpen(true)}
            onOpenBusinessProfile={() => setBusinessProfileOpen(true)}
            planLabel={planDialogTitle(user.data?.billingInfo)}
          />
        }
      />
      {consent.choice === null && <ConsentBanner onChoose={consent.choose} />}
      <RouteErrorBoundary>
        <Outlet />
      </RouteErrorBoundary>
      {session.status === 'signedIn' && (
        <>
          <AccountSettingsDialog open={accountOpen} onClose={() => setAccountOpen(false)} />
          <WhenOpened open={businessProfileOpen}>
            <BusinessProfileDialog
              open={businessProfileOpen}
              prefillWebsite={prefillWebsite}
              onClose={() => {
                setBusinessProfileOpen(false);
                setPrefillWebsite(undefined);
              }}
            />
          </WhenOpened>
          {/* The trial dialog is this same dialog, forced open by the address (spec section 4); after a
              purchase it opens on the new plan with a thank-you. */}
          <WhenOpened open={planOpen}>
            <UpgradePlanDialog
              open={planOpen}
              trial={trial.open && !upgradeOpen && !confirming}
              purchased={confirming}
              onClose={closeUpgrade}
            />
          </WhenOpened>
          <OnBehalfBanner userId={session.user.uid} />
        </>
      )}
      <Toaster />
    </>
  );
}
