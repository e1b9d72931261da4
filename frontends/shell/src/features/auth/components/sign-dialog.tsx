import { useState, type FormEvent, type ReactNode } from 'react';
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
  const dialog = { open, onClose };

  const toggleMode = () => {
    setMode(mode === 'signIn' ? 'signUp' : 'signIn');
    setError(null);
  };

  /** Runs one step of the dialog: busy while it runs, the error cleared first and failures told by fail. */
  const attempt = async (work: () => Promise<void>, fail: (failure: unknown) => void) => {
    setSubmitting(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      fail(failure);
    } finally {
      setSubmitting(false);
    }
  };

  /** A password or Google sign-in failed: a second factor asked for is the code prompt, anything else the banner. */
  const signInFailed = (failure: unknown) => {
    if (isSecondFactorRequired(failure)) setChallenge(failure);
    else setError(failureMessage(failure));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void attempt(async () => {
      if (mode === 'signIn') await actions.signIn(email, password);
      else if ((await actions.signUp(email, password)) === null) {
        setPassword('');
        setMailedTo(email.trim());
        return;
      }
      onClose();
    }, signInFailed);
  };

  const onVerify = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!challenge) return;
    void attempt(
      async () => {
        await challenge.complete(code.trim());
        onClose();
      },
      (failure) => setError(totpErrorMessage(failure)),
    );
  };

  const onRecover = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void attempt(
      async () => {
        await redeemRecoveryCode(email.trim(), recoveryCode.trim());
        setRecovered(true);
      },
      (failure) => setError(serverMessage(failure, RECOVERY_CODE_FAILED_MESSAGE)),
    );
  };

  /** After a recovery: the password sign-in again, now without a code; a Google one starts over. */
  const onContinue = () => {
    setChallenge(null);
    setRecovering(false);
    setRecovered(false);
    setRecoveryCode('');
    if (!password) return;
    void attempt(async () => {
      await actions.signIn(email, password);
      onClose();
    }, signInFailed);
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

  /** Between the code prompt and the recovery code: the other one, with no error carried over. */
  const showRecovery = (on: boolean) => {
    setRecovering(on);
    setError(null);
  };

  if (mailedTo !== null) {
    return (
      <Notice
        {...dialog}
        title={CHECK_EMAIL_TITLE}
        message={checkEmailMessage(mailedTo)}
        action="Sign in"
        onAction={() => {
          setMailedTo(null);
          setMode('signIn');
        }}
      />
    );
  }

  if (challenge && recovered) {
    return (
      <Notice
        {...dialog}
        title="Two-step sign-in is off"
        message={RECOVERY_USED_MESSAGE}
        action={password ? 'Sign in' : 'Back to sign in'}
        busy={submitting}
        onAction={onContinue}
      />
    );
  }

  if (challenge && recovering) {
    return (
      <Dialog
        {...dialog}
        title="Use a recovery code"
        description="Enter your email and one of the recovery codes you saved when you turned on two-step sign-in."
      >
        <form onSubmit={onRecover} noValidate>
          <ErrorBanner message={error} />
          <EmailField value={email} onChange={setEmail} />
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
        <LinkAction onClick={() => showRecovery(false)}>Use a code from your authenticator app</LinkAction>
      </Dialog>
    );
  }

  if (challenge) {
    return (
      <Dialog {...dialog} title="Two-step sign-in" description="Enter the 6-digit code from your authenticator app.">
        <form onSubmit={onVerify} noValidate>
          <ErrorBanner message={error} />
          <VerificationCodeField name="code" value={code} onChange={(event) => setCode(event.target.value)} />
          <Button type="submit" block loading={submitting} disabled={!code.trim()}>
            Verify
          </Button>
        </form>
        <LinkAction onClick={() => showRecovery(true)}>Use a recovery code</LinkAction>
      </Dialog>
    );
  }

  return (
    <Dialog {...dialog} title={title} description={description}>
      <form onSubmit={onSubmit} noValidate>
        <ErrorBanner message={error} />
        <EmailField value={email} onChange={setEmail} />
        <TextField
          label="Password"
          required
          type="password"
          name="password"
          autoComplete={mode === 'signIn' ? 'current-password' : 'new-password'}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {mode === 'signIn' && onForgotPassword && <LinkAction onClick={onForgotPassword}>Forgot password?</LinkAction>}
        <Button type="submit" block loading={submitting}>
          {copy.submit}
        </Button>
      </form>
      <LinkAction onClick={toggleMode}>{copy.toggle}</LinkAction>
      <Button variant="secondary" block onClick={onGoogle}>
        Continue with Google
      </Button>
    </Dialog>
  );
}

/** A link-styled button on a line of its own: the dialog's ways to another step. */
function LinkAction({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <p>
      <button type="button" className="u-link-btn" onClick={onClick}>
        {children}
      </button>
    </p>
  );
}

/** The email field, the same in the sign-in form and the recovery form. */
function EmailField({ value, onChange }: { value: string; onChange: (email: string) => void }) {
  return (
    <TextField
      label="Email"
      required
      type="email"
      name="email"
      autoComplete="email"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

interface NoticeProps {
  open: boolean;
  onClose: () => void;
  title: string;
  message: string;
  action: string;
  onAction: () => void;
  busy?: boolean;
}

/** A step that only tells something (read out as a status) and offers one way on. */
function Notice({ open, onClose, title, message, action, onAction, busy = false }: NoticeProps) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <p role="status">{message}</p>
      <Button block loading={busy} onClick={onAction}>
        {action}
      </Button>
    </Dialog>
  );
}
