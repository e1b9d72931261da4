import { useState } from 'react';
import { Button, useSession } from '@uplift/platform';
import { AvatarMenu } from './avatar-menu';
import { SignDialog } from './sign-dialog';

/** The top bar's right side: 'Sign in' when signed out, the avatar menu when signed in. */
export interface AuthControlsProps {
  onOpenAccountSettings: () => void;
  onOpenUpgradePlan: () => void;
}

export function AuthControls({ onOpenAccountSettings, onOpenUpgradePlan }: AuthControlsProps) {
  const session = useSession();
  const [signOpen, setSignOpen] = useState(false);
  if (session.status === 'signedIn') {
    return (
      <AvatarMenu user={session.user} onOpenAccountSettings={onOpenAccountSettings} onOpenUpgradePlan={onOpenUpgradePlan} />
    );
  }
  return (
    <>
      <Button onClick={() => setSignOpen(true)}>Sign in</Button>
      {/* Remounted on each open so it starts clean in sign-in mode. */}
      {signOpen && <SignDialog open onClose={() => setSignOpen(false)} />}
    </>
  );
}
