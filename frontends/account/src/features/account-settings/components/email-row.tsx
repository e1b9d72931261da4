import { useState, type FormEvent } from 'react';
import { browser, Button, serverMessage, UNKNOWN_ERROR_MESSAGE, useAccountSecurity, useUpdateEmail } from '@uplift/platform';
import { TextField } from '@uplift/platform/text-field';

/** The email with 'Edit'; the form changes it and reloads the app on success (spec section 4). */
export function EmailRow({ userId, email }: { userId: string; email: string }) {
  const [editing, setEditing] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateEmail(userId);
  const security = useAccountSecurity();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    update.mutate(newEmail.trim(), {
      // The change ended the Firebase session: sign in again with the token the
      // server gave, then start over, since everything cached has the old email.
      onSuccess: async (response) => {
        try {
          if (response.signInToken && security) await security.resumeSession(response.signInToken);
        } catch (failure) {
          console.warn('Could not sign in again after the email change', failure);
        }
        browser.assign('/');
      },
      onError: (failure) => setError(serverMessage(failure, UNKNOWN_ERROR_MESSAGE)),
    });
  };

  return (
    <div className="account-settings__row">
      <dt>Email</dt>
      <dd>{email}</dd>
      {/* Only dt and dd may sit in a definition list's row: the controls go in a dd of their own. */}
      <dd className="account-settings__actions">
      {!editing && (
        <Button variant="secondary" onClick={() => setEditing(true)}>
          Edit
        </Button>
      )}
      {editing && (
        <form onSubmit={onSubmit} noValidate style={{ width: '100%' }}>
          <TextField
            label="New email"
            required
            error={error}
            type="email"
            name="new-email"
            autoComplete="email"
            value={newEmail}
            onChange={(event) => setNewEmail(event.target.value)}
          />
          <Button type="submit" loading={update.isPending} disabled={!newEmail.trim()}>
            Update email
          </Button>{' '}
          <Button variant="ghost" onClick={() => setEditing(false)} disabled={update.isPending}>
            Cancel
          </Button>
        </form>
      )}
      </dd>
    </div>
  );
}
