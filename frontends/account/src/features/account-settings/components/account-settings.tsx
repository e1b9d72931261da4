import { useSession } from '@uplift/platform';

/**
 * Account Settings content: the signed-in user's email.
 * Editing the email ('Update email') and the 'Reset password' row come in a
 * later issue, with their endpoints.
 */
export function AccountSettings() {
  const session = useSession();
  const email = session.user?.email ?? '';
  return (
    <dl className="account-settings">
      <dt>Email</dt>
      <dd>{email}</dd>
    </dl>
  );
}
