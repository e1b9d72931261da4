import { Button, resetPasswordSentMessage, serverMessage, UNKNOWN_ERROR_MESSAGE, useResetPassword } from '@uplift/platform';

/** The password row: 'Reset password' emails a reset link to the account email. */
export function PasswordRow({ email }: { email: string }) {
  const reset = useResetPassword();
  return (
    <div className="account-settings__row">
      <dt>Password</dt>
      <dd>••••••••</dd>
      <Button variant="secondary" loading={reset.isPending} disabled={!email} onClick={() => reset.mutate(email)}>
        Reset password
      </Button>
      {reset.isSuccess && (
        <p role="status" className="u-note" style={{ width: '100%' }}>
          {resetPasswordSentMessage(email)}
        </p>
      )}
      {reset.isError && (
        <p role="alert" className="u-alert" style={{ width: '100%' }}>
          {serverMessage(reset.error, UNKNOWN_ERROR_MESSAGE)}
        </p>
      )}
    </div>
  );
}
