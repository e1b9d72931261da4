import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button, ErrorBanner, LOADING_TEXT, UNKNOWN_ERROR_MESSAGE } from '@uplift/platform';
import { TextField } from '@uplift/platform/text-field';
import { resetCodeFrom, RESET_LINK_INVALID_MESSAGE } from '../lib/password-reset';
import { isSecondFactorRequired } from '../lib/totp';
import { useAuthActions, usePasswordReset } from './auth-provider';

export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. Please sign in with your new password.';

type State =
  | { step: 'checking' }
  | { step: 'invalid' }
  | { step: 'form'; email: string }
  | { step: 'done' };

/**
 * /reset-password?mode=resetPassword&oobCode=…: where the emailed reset link
 * lands. Checks the code, takes the new password, then signs the user in.
 */
export function ResetPasswordPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const reset = usePasswordReset();
  const { signIn } = useAuthActions();
  const code = resetCodeFrom(search);
  const [state, setState] = useState<State>({ step: 'checking' });
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (!code) {
      setState({ step: 'invalid' });
      return;
    }
    let active = true;
    reset.verify(code).then(
      (email) => active && setState({ step: 'form', email }),
      () => active && setState({ step: 'invalid' }),
    );
    return () => {
      active = false;
    };
  }, [code, reset]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code || state.step !== 'form') return;
    setSubmitting(true);
    setError(null);
    try {
      await reset.confirm(code, password);
    } catch (failure) {
      setError(failure instanceof Error && failure.message ? failure.message : UNKNOWN_ERROR_MESSAGE);
      setSubmitting(false);
      return;
    }
    try {
      await signIn(state.email, password);
      navigate('/', { replace: true });
    } catch (failure) {
      // Two-step accounts (and any sign-in hiccup) finish through the Sign in dialog.
      if (!isSecondFactorRequired(failure)) console.warn('Sign-in after the reset failed', failure);
      setState({ step: 'done' });
    }
    setSubmitting(false);
  };

  return (
    <main className="u-page">
      <h1>Reset password</h1>
      {state.step === 'checking' && <p>{LOADING_TEXT}</p>}
      <ErrorBanner message={state.step === 'invalid' && RESET_LINK_INVALID_MESSAGE} />
      {state.step === 'done' && (
        <p role="status" className="u-note">
          {PASSWORD_CHANGED_MESSAGE}
        </p>
      )}
      {state.step === 'form' && (
        <form onSubmit={onSubmit} noValidate style={{ maxWidth: '24rem' }}>
          <p>Choose a new password for {state.email}.</p>
          <TextField
            label="New password"
            required
            error={error}
            type="password"
            name="new-password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <Button type="submit" block loading={submitting} disabled={!password}>
            Save new password
          </Button>
        </form>
      )}
    </main>
  );
}
