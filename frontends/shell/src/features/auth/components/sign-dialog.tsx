import { useState, type FormEvent } from 'react';
import { Button, Dialog, ErrorBanner } from '@uplift/platform';
import { failureMessage, GOOGLE_SIGN_IN_FAILED_MESSAGE } from '../lib/auth-errors';
import { isSecondFactorRequired, totpErrorMessage, type SecondFactorRequired } from '../lib/totp';
import { useAuthActions } from './auth-provider';

export type SignMode = 'signIn' | 'signUp';

const COPY = {
  signIn: {
    title: 'Sign in',
    description: 'Please sign in below to continue.',
    toggle: 'First time here?',
    submit: 'Sign in',
  },
  signUp: {
    title: 'Sign up',
    description: 'Please sign up below to continue.',
    toggle: 'Already have an account?',
    submit: 'Sign up',
  },
} as const;

export interface SignDialogProps {
  open: boolean;
  onClose: () => void;
  initialMode?: SignMode;
  /** The email to start with (from `?email=`). */
  initialEmail?: string;
  /** Custom titles, per mode; default 'Sign in' / 'Sign up'. */
  titles?: Partial<Record<SignMode, string>>;
  /** Custom descriptions, per mode; default 'Please sign in/up below to continue.' */
  descriptions?: Partial<Record<SignMode, string>>;
  /** The reset handler: with it, signing in offers 'Forgot password?'. */
  onForgotPassword?: () => void;
}

/** The sign in / sign up dialog (spec section 2, dialog 1). */
export function SignDialog({
  open,
  onClose,
  initialMode = 'signIn',
  initialEmail = '',
  titles,
  descriptions,
  onForgotPassword,
}: SignDialogProps) {
  const actions = useAuthActions();
  const [mode, setMode] = useState<SignMode>(initialMode);
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Set when the account uses two-step sign-in: the dialog then asks for a code.
  const [challenge, setChallenge] = useState<SecondFactorRequired | null>(null);
  const [code, setCode] = useState('');
  const copy = COPY[mode];
  const title = titles?.[mode] ?? copy.title;
  const description = descriptions?.[mode] ?? copy.description;

  const toggleMode = () => {
    setMode(mode === 'signIn' ? 'signUp' : 'signIn');
    setError(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      if (mode === 'signIn') await actions.signIn(email, password);
      else await actions.signUp(email, password);
      setSubmitting(false);
      onClose();
    } catch (failure) {
      if (isSecondFactorRequired(failure)) setChallenge(failure);
      else setError(failureMessage(failure));
      setSubmitting(false);
    }
  };

  const onVerify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!challenge) return;
    setSubmitting(true);
    setError(null);
    try {
      await challenge.complete(code.trim());
      setSubmitting(false);
      onClose();
    } catch (failure) {
      setError(totpErrorMessage(failure));
      setSubmitting(false);
    }
  };

  const onGoogle = async () => {
    try {
      await actions.signInWithGoogle();
      onClose();
    } catch (failure) {
      if (isSecondFactorRequired(failure)) {
        setChallenge(failure);
        return;
      }
      console.error('Google sign-in failed', failure);
      window.alert(GOOGLE_SIGN_IN_FAILED_MESSAGE);
    }
  };

  if (challenge) {
    return (
      <Dialog
        open={open}
        onClose={onClose}
        title="Two-step sign-in"
        description="Enter the 6-digit code from your authenticator app."
      >
        <form onSubmit={onVerify} noValidate>
          <ErrorBanner message={error} />
          <label className="u-field">
            Verification code
            <input
              className="u-input"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </label>
          <Button type="submit" block loading={submitting} disabled={!code.trim()}>
            Verify
          </Button>
        </form>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onClose={onClose} title={title} description={description}>
      <form onSubmit={onSubmit} noValidate>
        <ErrorBanner message={error} />
        <label className="u-field">
          Email
          <input
            className="u-input"
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <label className="u-field">
          Password
          <input
            className="u-input"
            type="password"
            name="password"
            autoComplete={mode === 'signIn' ? 'current-password' : 'new-password'}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {mode === 'signIn' && onForgotPassword && (
          <p>
            <button type="button" className="u-link-btn" onClick={onForgotPassword}>
              Forgot password?
            </button>
          </p>
        )}
        <Button type="submit" block loading={submitting}>
          {copy.submit}
        </Button>
      </form>
      <p>
        <button type="button" className="u-link-btn" onClick={toggleMode}>
          {copy.toggle}
        </button>
      </p>
      <Button variant="secondary" block onClick={onGoogle}>
        Continue with Google
      </Button>
    </Dialog>
  );
}
