import { useState } from 'react';
import {
  Button,
  ErrorBanner,
  openIdentityVerification,
  serverMessage,
  UNKNOWN_ERROR_MESSAGE,
  useCreateIdentityVerification,
  useWidgetSettings,
  type VerificationOutcome,
} from '@uplift/platform';

export const IDENTITY_SUBMITTED_MESSAGE =
  'Thank you. Stripe is checking your document and selfie; this usually takes a few minutes.';

/**
 * Identity verification (spec section 1's third-party widget) in Account
 * Settings: the server starts a Stripe Identity session for the signed-in
 * person and Stripe's modal takes the document and selfie. Shown only when
 * the widget is configured (a Stripe publishable key). The outcome stays
 * with Stripe: Uplift does not record it yet.
 */
export function IdentityRow() {
  const { stripePublishableKey } = useWidgetSettings();
  const create = useCreateIdentityVerification();
  const [opening, setOpening] = useState(false);
  const [outcome, setOutcome] = useState<VerificationOutcome | null>(null);
  if (!stripePublishableKey) return null;

  const verify = async () => {
    setOutcome(null);
    let session;
    try {
      session = await create.mutateAsync();
    } catch {
      return; // create.error is shown below
    }
    setOpening(true);
    try {
      setOutcome(await openIdentityVerification(stripePublishableKey, session.clientSecret ?? ''));
    } finally {
      setOpening(false);
    }
  };

  const error = create.isError
    ? serverMessage(create.error, UNKNOWN_ERROR_MESSAGE)
    : outcome?.status === 'failed'
      ? outcome.message
      : null;
  return (
    <div className="account-settings__row">
      <dt>Identity</dt>
      <dd>Verify who you are with a photo ID and a selfie, checked by Stripe.</dd>
      <dd className="account-settings__actions">
        <Button variant="secondary" loading={create.isPending || opening} onClick={() => void verify()}>
          Verify your identity
        </Button>
        {outcome?.status === 'submitted' && (
          <p role="status" className="u-note" style={{ width: '100%' }}>
            {IDENTITY_SUBMITTED_MESSAGE}
          </p>
        )}
        <ErrorBanner message={error} style={{ width: '100%' }} />
      </dd>
    </div>
  );
}
