import { useSession, useUser } from '@uplift/platform';
import { EmailRow } from './email-row';
import { PasswordRow } from './password-row';
import { TwoStepRow } from './two-step-row';
import { IdentityRow } from './identity-row';
import { AuditLogSection } from './audit-log-section';

/** Account Settings content (spec section 2, dialog 3): email, password, two-step sign-in, and who acted for you. */
export function AccountSettings() {
  const session = useSession();
  const uid = session.user?.uid ?? '';
  const user = useUser(uid || undefined);
  // The stored email is authoritative; the Firebase one is there before it loads.
  const email = user.data?.email || session.user?.email || '';
  if (!uid) return null;
  return (
    <>
      <dl className="account-settings">
        <EmailRow userId={uid} email={email} />
        <PasswordRow email={email} />
        <TwoStepRow />
        <IdentityRow userId={uid} />
      </dl>
      <AuditLogSection userId={uid} />
    </>
  );
}
