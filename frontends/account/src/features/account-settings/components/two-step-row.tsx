import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import { Button, ErrorBanner, type TotpEnrollment, UNKNOWN_ERROR_MESSAGE, useAccountSecurity } from '@uplift/platform';

export const TWO_STEP_ON_MESSAGE = 'Two-step sign-in is on. You will be asked for a code when you sign in.';
export const TWO_STEP_OFF_MESSAGE = 'Two-step sign-in is off. Your password alone signs you in.';

/** The shell's AccountSecurity rejects with messages meant for people. */
function messageFor(error: unknown): string {
  return error instanceof Error && error.message ? error.message : UNKNOWN_ERROR_MESSAGE;
}

/** The otpauth URL as a QR code image (a data: URL), or null while it renders. */
function useQrCode(text: string | undefined): string | null {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    setDataUrl(null);
    if (!text) return;
    let active = true;
    QRCode.toDataURL(text, { margin: 1, width: 192 }).then(
      (url) => active && setDataUrl(url),
      (error: unknown) => console.error('Could not draw the QR code', error),
    );
    return () => {
      active = false;
    };
  }, [text]);
  return dataUrl;
}

/**
 * Two-step sign-in with time-based codes (spec section 3): a QR code and the
 * secret for an authenticator app, then a code to prove it works.
 */
export function TwoStepRow() {
  const security = useAccountSecurity();
  const [enabled, setEnabled] = useState(() => security?.hasTotp() ?? false);
  const [enrollment, setEnrollment] = useState<TotpEnrollment | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Turning it off: asked for the password and a fresh code first.
  const [turningOff, setTurningOff] = useState(false);
  const [password, setPassword] = useState('');
  const [turnedOff, setTurnedOff] = useState(false);
  const qr = useQrCode(enrollment?.otpauthUrl);

  if (!security) return null;

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      setEnrollment(await security.startTotpEnrollment());
    } catch (failure) {
      setError(messageFor(failure));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!enrollment) return;
    setBusy(true);
    setError(null);
    try {
      await enrollment.finish(code.trim());
      setEnrollment(null);
      setCode('');
      setEnabled(true);
      setTurnedOff(false);
    } catch (failure) {
      setError(messageFor(failure));
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await security.disableTotp(password, code.trim());
      setTurningOff(false);
      setPassword('');
      setCode('');
      setEnabled(false);
      setTurnedOff(true);
    } catch (failure) {
      setError(messageFor(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="account-settings__row">
      <dt>Two-step sign-in</dt>
      <dd>{enabled ? 'On' : 'Off'}</dd>
      {/* Only dt and dd may sit in a definition list's row: the controls go in a dd of their own. */}
      <dd className="account-settings__actions">
      {!enabled && !enrollment && (
        <Button variant="secondary" loading={busy} onClick={() => void start()}>
          Set up two-step sign-in
        </Button>
      )}
      <ErrorBanner message={error} style={{ width: '100%' }} />
      {enabled && (
        <p role="status" className="u-note" style={{ width: '100%' }}>
          {TWO_STEP_ON_MESSAGE}
        </p>
      )}
      {turnedOff && (
        <p role="status" className="u-note" style={{ width: '100%' }}>
          {TWO_STEP_OFF_MESSAGE}
        </p>
      )}
      {enabled && !turningOff && (
        <Button variant="secondary" onClick={() => setTurningOff(true)}>
          Turn off two-step sign-in
        </Button>
      )}
      {enabled && turningOff && (
        <form onSubmit={turnOff} noValidate style={{ width: '100%' }}>
          <p>To turn it off, confirm your password and a current code from your authenticator app.</p>
          <label className="u-field">
            Password
            <input
              className="u-input"
              type="password"
              name="current-password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </label>
          <label className="u-field">
            Verification code
            <input
              className="u-input"
              name="totp-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </label>
          <Button type="submit" loading={busy} disabled={!password || !code.trim()}>
            Turn off
          </Button>{' '}
          <Button variant="ghost" onClick={() => setTurningOff(false)}>
            Cancel
          </Button>
        </form>
      )}
      {enrollment && (
        <form onSubmit={verify} noValidate style={{ width: '100%' }}>
          <p>Scan this QR code with your authenticator app, or type the secret key into it.</p>
          {qr ? <img className="totp__qr" src={qr} alt="QR code for your authenticator app" /> : null}
          <p>
            Secret key: <code className="totp__secret">{enrollment.secretKey}</code>
          </p>
          <label className="u-field">
            Verification code
            <input
              className="u-input"
              name="totp-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </label>
          <Button type="submit" loading={busy} disabled={!code.trim()}>
            Verify and turn on
          </Button>
        </form>
      )}
      </dd>
    </div>
  );
}
