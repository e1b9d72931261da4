import { useState } from 'react';
import { Button } from '@uplift/platform';

export const RECOVERY_CODES_INTRO =
  'Save these recovery codes somewhere safe, away from your phone. If you lose your phone, one code turns two-step sign-in off so you can sign in with your password. Each code works once, and they are shown only now.';
export const RECOVERY_CODES_COPIED = 'Copied.';
export const RECOVERY_CODES_FILE = 'uplift-recovery-codes.txt';

/** The codes as a file: one a line, with what they are for. */
export function recoveryCodesText(codes: string[]): string {
  return ['Uplift two-step sign-in recovery codes. Each works once.', '', ...codes, ''].join('\n');
}

/** Recovery codes shown once, to copy or download, until the owner says they are saved. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
    } catch (error) {
      // Some browsers refuse the clipboard; the codes stay on screen and downloadable.
      console.error('Could not copy the recovery codes', error);
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([recoveryCodesText(codes)], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = RECOVERY_CODES_FILE;
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <section aria-labelledby="recovery-codes-title" style={{ width: '100%' }}>
      <h4 id="recovery-codes-title">Your recovery codes</h4>
      <p>{RECOVERY_CODES_INTRO}</p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <Button variant="secondary" onClick={() => void copy()}>
        Copy
      </Button>{' '}
      <Button variant="secondary" onClick={download}>
        Download
      </Button>{' '}
      <Button onClick={onDone}>I have saved them</Button>
      {copied && (
        <p role="status" className="u-note">
          {RECOVERY_CODES_COPIED}
        </p>
      )}
    </section>
  );
}
