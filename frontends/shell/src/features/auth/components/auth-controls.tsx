import { Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Button, useSession } from '@uplift/platform';
import { loadAuthActions } from '../lib/lazy-auth-actions';
import { emailFromAddress, wantsSignUp } from '../lib/require-signup';
import { AvatarMenu } from './avatar-menu';
import { lazyNamed } from '../../../lib/lazy';
import type { SignMode } from './sign-dialog';

// Fetched when a visitor first asks for them, not with the first page.
const SignDialog = lazyNamed(() => import('./sign-dialog'), 'SignDialog');
const ResetPasswordDialog = lazyNamed(() => import('./reset-password-dialog'), 'ResetPasswordDialog');

/** The top bar's right side: 'Sign in' when signed out, the avatar menu when signed in. */
export interface AuthControlsProps {
  onOpenAccountSettings: () => void;
  onOpenUpgradePlan: () => void;
  onOpenBusinessProfile: () => void;
  /** The avatar menu's plan entry ('Upgrade plan', or 'Your plan' when paying). */
  planLabel?: string;
}

export function AuthControls({ onOpenAccountSettings, onOpenUpgradePlan, onOpenBusinessProfile, planLabel }: AuthControlsProps) {
  const session = useSession();
  const { search } = useLocation();
  const requireSignup = wantsSignUp(search);
  const prefilledEmail = emailFromAddress(search);
  // The dialog that is open: the sign dialog in a mode, Reset password, or none.
  const [signMode, setSignMode] = useState<SignMode | 'resetPassword' | null>(null);
  const signedOut = session.status === 'signedOut';
  // The flows' code comes with the dialog, before any of its buttons is pressed.
  useEffect(() => {
    if (signMode) void loadAuthActions();
  }, [signMode]);

  // ?requireSignup=true (e.g. from the website-score page) opens Sign up for visitors.
  useEffect(() => {
    if (requireSignup && signedOut) setSignMode('signUp');
  }, [requireSignup, signedOut]);

  if (session.status === 'signedIn') {
    return (
      <AvatarMenu
        user={session.user}
        onOpenAccountSettings={onOpenAccountSettings}
        onOpenUpgradePlan={onOpenUpgradePlan}
        onOpenBusinessProfile={onOpenBusinessProfile}
        planLabel={planLabel}
      />
    );
  }
  return (
    <>
      <Button onClick={() => setSignMode('signIn')}>Sign in</Button>
      <Suspense fallback={null}>
        {/* Remounted on each open so it starts clean in the requested mode. */}
        {signMode === 'resetPassword' && (
          <ResetPasswordDialog open initialEmail={prefilledEmail} onClose={() => setSignMode(null)} onBackToSignIn={() => setSignMode('signIn')} />
        )}
        {signMode && signMode !== 'resetPassword' && (
          <SignDialog
            key={signMode}
            open
            initialMode={signMode}
            initialEmail={prefilledEmail}
            onClose={() => setSignMode(null)}
            onForgotPassword={() => setSignMode('resetPassword')}
          />
        )}
      </Suspense>
    </>
  );
}
