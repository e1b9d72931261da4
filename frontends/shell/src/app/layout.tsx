import { useState } from 'react';
import { Outlet } from 'react-router';
import { Toaster, useSession } from '@uplift/platform';
import { TopBar } from '../components/layout/top-bar';
import { AccountSettingsDialog } from '../features/account-settings/components/account-settings-dialog';
import { AuthControls } from '../features/auth';
import { UpgradePlanDialog, useCheckoutReturn, useTrialDialog } from '../features/billing';
import { useEnv } from '../lib/env-context';

/** Page frame: top bar, the routed page, toasts and the dialogs the menu opens. */
export function Layout() {
  const session = useSession();
  const env = useEnv();
  const [accountOpen, setAccountOpen] = useState(false);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const trial = useTrialDialog();
  useCheckoutReturn();

  // A blank grey screen until Firebase knows whether someone is signed in.
  if (session.status === 'unknown') return <div className="auth-pending" aria-busy="true" />;

  const closeUpgrade = () => {
    setUpgradeOpen(false);
    trial.dismiss();
  };

  return (
    <>
      <TopBar
        marketingUrl={env.marketingUrl}
        actions={
          <AuthControls
            onOpenAccountSettings={() => setAccountOpen(true)}
            onOpenUpgradePlan={() => setUpgradeOpen(true)}
          />
        }
      />
      <Outlet />
      {session.status === 'signedIn' && (
        <>
          <AccountSettingsDialog open={accountOpen} onClose={() => setAccountOpen(false)} />
          {/* The trial dialog is this same dialog, forced open by the address (spec section 4). */}
          <UpgradePlanDialog open={upgradeOpen || trial.open} onClose={closeUpgrade} />
        </>
      )}
      <Toaster />
    </>
  );
}
