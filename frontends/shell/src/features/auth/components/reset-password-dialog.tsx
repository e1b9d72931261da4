import { useState, type FormEvent } from 'react';
import { Button, Dialog, resetPassword, resetPasswordSentMessage, serverMessage, UNKNOWN_ERROR_MESSAGE } from '@uplift/platform';
import { TextField } from '@uplift/platform/text-field';

export interface ResetPasswordDialogProps {
  open: boolean;
  onClose: () => void;
  initialEmail?: string;
  /** With it, the dialog offers 'Or go back to Sign in'. */
  onBackToSignIn?: () => void;
}

/** The Reset password dialog (spec section 2, dialog 2). */
export function ResetPasswordDialog({ open, onClose, initialEmail = '', onBackToSignIn }: ResetPasswordDialogProps) {
  const [email, setEmail] = useState(initialEmail);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const address = email.trim();
    setSubmitting(true);
    setError(null);
    setSentTo(null);
    try {
      await resetPassword(address);
      setSentTo(address);
    } catch (failure) {
      setError(serverMessage(failure, UNKNOWN_ERROR_MESSAGE));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Reset password"
      description="Enter the email address of your account and we will send you a link to reset your password."
    >
      <form onSubmit={onSubmit} noValidate>
        {sentTo && (
          <p role="status" className="u-note">
            {resetPasswordSentMessage(sentTo)}
          </p>
        )}
        <TextField
          label="Email"
          required
          error={error}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button type="submit" block loading={submitting} disabled={!email.trim()}>
          Reset password
        </Button>
      </form>
      {onBackToSignIn && (
        <p>
          <button type="button" className="u-link-btn" onClick={onBackToSignIn}>
            Or go back to Sign in
          </button>
        </p>
      )}
    </Dialog>
  );
}
