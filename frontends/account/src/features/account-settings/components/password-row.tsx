import { Button, ErrorBanner, resetPasswordSentMessage, serverMessage, UNKNOWN_ERROR_MESSAGE, useResetPassword } from '@uplift/platform';

/** The password row: 'Reset password' emails a reset link to the account email. */
export function PasswordRow({ email }: { email: string }) {
  const reset = useResetPassword();
  return (
    <div className="account-settings__row">
      <dt>Password</dt>
      <dd>••••••••</dd>
      {/* Only dt and dd may sit in a definition list's row: the controls go in a dd of their own. */}
      <dd className="account-settings__actions">
      <Button variant="secondary" loading={reset.isPending} disabled={!email} onClick={() => reset.mutate(email)}>
        Reset password
      </Button>
      {reset.isSuccess && (
        <p role="status" className="u-note" style={{ width: '100%' }}>
          {resetPasswordSentMessage(email)}
        </p>
      )}
      <ErrorBanner message={reset.isError && serverMessage(reset.error, UNKNOWN_ERROR_MESSAGE)} style={{ width: '100%' }} />
      </dd>
    </div>
  );
}
