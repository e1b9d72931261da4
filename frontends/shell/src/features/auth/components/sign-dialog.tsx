import { useState, type FormEvent } from 'react';
import { Button, Dialog } from '@uplift/platform';
import { failureMessage, GOOGLE_SIGN_IN_FAILED_MESSAGE } from '../lib/auth-errors';
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
}

/** The sign in / sign up dialog (spec section 2, dialog 1). */
export function SignDialog({ open, onClose, initialMode = 'signIn' }: SignDialogProps) {
  const actions = useAuthActions();
  const [mode, setMode] = useState<SignMode>(initialMode);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const copy = COPY[mode];

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
      setError(failureMessage(failure));
      setSubmitting(false);
    }
  };

  const onGoogle = async () => {
    try {
      await actions.signInWithGoogle();
      onClose();
    } catch (failure) {
      console.error('Google sign-in failed', failure);
      window.alert(GOOGLE_SIGN_IN_FAILED_MESSAGE);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} title={copy.title} description={copy.description}>
      <form onSubmit={onSubmit} noValidate>
        {error && (
          <div role="alert" className="u-alert">
            {error}
          </div>
        )}
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
