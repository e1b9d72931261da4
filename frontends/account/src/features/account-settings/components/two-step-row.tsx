import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import {
  Button,
  ErrorBanner,
  serverMessage,
  type TotpEnrollment,
  useAccountSecurity,
  useCreateRecoveryCodes,
} from '@uplift/platform';
import { TextField, VerificationCodeField } from '@uplift/platform/text-field';
import { RecoveryCodes } from './recovery-codes';

export const TWO_STEP_ON_MESSAGE = 'Two-step sign-in is on. You will be asked for a code when you sign in.';
export const TWO_STEP_OFF_MESSAGE = 'Two-step sign-in is off. Your password alone signs you in.';
export const RECOVERY_CODES_NOT_MADE =
  "Two-step sign-in is on, but your recovery codes could not be made. Use 'New recovery codes' to make them.";

/** Said when new recovery codes are asked for and the server could not make them (and did not say why). */
export const RECOVERY_CODES_FAILED = 'Your new recovery codes could not be made. Please try again in a moment.';
/** Said when a two-step step failed with no message of its own (the shell's always have one). */
export const TWO_STEP_FAILED = 'Two-step sign-in could not be changed. Please try again in a moment.';

/** The shell's AccountSecurity rejects with messages meant for people. */
function messageFor(error: unknown): string {
  return error instanceof Error && error.message ? error.message : TWO_STEP_FAILED;
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
 * secret for an authenticator app, then a code to prove it works; then the
 * recovery codes, shown once. Turning it off, and new recovery codes, take
 * the password and a current code first.
 */
export function TwoStepRow() {
  const security = useAccountSecurity();
  const [enabled, setEnabled] = useState(() => security?.hasTotp() ?? false);
  const [enrollment, setEnrollment] = useState<TotpEnrollment | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Turning it off, or new recovery codes: asked for the password and a fresh code first.
  const [confirming, setConfirming] = useState<'off' | 'codes' | null>(null);
  const turningOff = confirming === 'off';
  const createCodes = useCreateRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [password, setPassword] = useState('');
  const [turnedOff, setTurnedOff] = useState(false);
  const qr = useQrCode(enrollment?.otpauthUrl);

  if (!security) return null;

  /** Makes and shows new recovery codes; says so when they could not be made. */
  const makeCodes = async (failure: (error: unknown) => string) => {
    try {
      setCodes(await createCodes.mutateAsync());
      return true;
    } catch (error) {
      setError(failure(error));
      return false;
    }
  };

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
      await makeCodes(() => RECOVERY_CODES_NOT_MADE);
    } catch (failure) {
      setError(messageFor(failure));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (turningOff) {
        await security.disableTotp(password, code.trim());
        setEnabled(false);
        setTurnedOff(true);
        setCodes(null);
      } else {
        await security.confirmSignIn(password, code.trim());
        if (!(await makeCodes((failure) => serverMessage(failure, RECOVERY_CODES_FAILED)))) return;
      }
      setConfirming(null);
      setPassword('');
      setCode('');
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
      {enabled && codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {enabled && !confirming && !codes && (
        <>
          <Button variant="secondary" onClick={() => setConfirming('codes')}>
            New recovery codes
          </Button>
          <Button variant="secondary" onClick={() => setConfirming('off')}>
            Turn off two-step sign-in
          </Button>
        </>
      )}
      {enabled && confirming && (
        <form onSubmit={confirm} noValidate style={{ width: '100%' }}>
          <p>
            {turningOff
              ? 'To turn it off, confirm your password and a current code from your authenticator app.'
              : 'New recovery codes replace the old ones. Confirm your password and a current code from your authenticator app.'}
          </p>
          <TextField
            label="Password"
            required
            type="password"
            name="current-password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <VerificationCodeField
            name="totp-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <Button type="submit" loading={busy} disabled={!password || !code.trim()}>
            {turningOff ? 'Turn off' : 'Make new codes'}
          </Button>{' '}
          <Button variant="ghost" onClick={() => setConfirming(null)}>
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
          <VerificationCodeField
            name="totp-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <Button type="submit" loading={busy} disabled={!code.trim()}>
            Verify and turn on
          </Button>
        </form>
      )}
      </dd>
    </div>
  );
}
