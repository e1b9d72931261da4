import { useState, type FormEvent } from 'react';
import { Button, Dialog, ErrorBanner, redeemRecoveryCode, serverMessage } from '@uplift/platform';
import { TextField, VerificationCodeField } from '@uplift/platform/text-field';
import { failureMessage, GOOGLE_SIGN_IN_FAILED_MESSAGE } from '../lib/auth-errors';
import { isSecondFactorRequired, totpErrorMessage, type SecondFactorRequired } from '../lib/totp';
import { useAuthActions } from './auth-provider';

export type SignMode = 'signIn' | 'signUp';

/**
 * After a sign-up with an email that already has an account: the server
 * said no more than for a new one and emailed the address, so this says
 * only what is true either way.
 */
export const CHECK_EMAIL_TITLE = 'Check your email';
export const checkEmailMessage = (email: string) => `We've sent an email to ${email} with what to do next.`;

/** A recovery code the server could not check, when it did not say why (a network failure). */
export const RECOVERY_CODE_FAILED_MESSAGE = 'Your recovery code could not be checked. Please try again in a moment.';

export const RECOVERY_USED_MESSAGE =
  'Your recovery code worked: two-step sign-in is now off, so your password alone signs you in. Please set up two-step sign-in again in Account Settings; it gives you new recovery codes.';

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
  // At the code prompt: a recovery code instead, then the sign-in again.
  const [recovering, setRecovering] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [recovered, setRecovered] = useState(false);
  // Set to the address after a sign-up that made no account (see CHECK_EMAIL_TITLE).
  const [mailedTo, setMailedTo] = useState<string | null>(null);
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
      else if ((await actions.signUp(email, password)) === null) {
        setSubmitting(false);
        setPassword('');
        setMailedTo(email.trim());
        return;
      }
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

  const onRecover = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitting(true);
    setError(null);
    try {
      await redeemRecoveryCode(email.trim(), recoveryCode.trim());
      setRecovered(true);
    } catch (failure) {
      setError(serverMessage(failure, RECOVERY_CODE_FAILED_MESSAGE));
    } finally {
      setSubmitting(false);
    }
  };

  /** After a recovery: the password sign-in again, now without a code; a Google one starts over. */
  const onContinue = async () => {
    setChallenge(null);
    setRecovering(false);
    setRecovered(false);
    setRecoveryCode('');
    if (!password) return;
    setSubmitting(true);
    try {
      await actions.signIn(email, password);
      setSubmitting(false);
      onClose();
    } catch (failure) {
      if (isSecondFactorRequired(failure)) setChallenge(failure);
      else setError(failureMessage(failure));
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

  if (mailedTo !== null) {
    return (
      <Dialog open={open} onClose={onClose} title={CHECK_EMAIL_TITLE}>
        <p role="status">{checkEmailMessage(mailedTo)}</p>
        <Button
          block
          onClick={() => {
            setMailedTo(null);
            setMode('signIn');
          }}
        >
          Sign in
        </Button>
      </Dialog>
    );
  }

  if (challenge && recovered) {
    return (
      <Dialog open={open} onClose={onClose} title="Two-step sign-in is off">
        <p role="status">{RECOVERY_USED_MESSAGE}</p>
        <Button block loading={submitting} onClick={() => void onContinue()}>
          {password ? 'Sign in' : 'Back to sign in'}
        </Button>
      </Dialog>
    );
  }

  if (challenge && recovering) {
    return (
      <Dialog
        open={open}
        onClose={onClose}
        title="Use a recovery code"
        description="Enter your email and one of the recovery codes you saved when you turned on two-step sign-in."
      >
        <form onSubmit={onRecover} noValidate>
          <ErrorBanner message={error} />
          <TextField
            label="Email"
            required
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <TextField
            label="Recovery code"
            required
            name="recovery-code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={recoveryCode}
            onChange={(event) => setRecoveryCode(event.target.value)}
          />
          <Button type="submit" block loading={submitting} disabled={!email.trim() || !recoveryCode.trim()}>
            Use recovery code
          </Button>
        </form>
        <p>
          <button
            type="button"
            className="u-link-btn"
            onClick={() => {
              setRecovering(false);
              setError(null);
            }}
          >
            Use a code from your authenticator app
          </button>
        </p>
      </Dialog>
    );
  }

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
          <VerificationCodeField
            name="code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <Button type="submit" block loading={submitting} disabled={!code.trim()}>
            Verify
          </Button>
        </form>
        <p>
          <button
            type="button"
            className="u-link-btn"
            onClick={() => {
              setRecovering(true);
              setError(null);
            }}
          >
            Use a recovery code
          </button>
        </p>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onClose={onClose} title={title} description={description}>
      <form onSubmit={onSubmit} noValidate>
        <ErrorBanner message={error} />
        <TextField
          label="Email"
          required
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          required
          type="password"
          name="password"
          autoComplete={mode === 'signIn' ? 'current-password' : 'new-password'}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
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
