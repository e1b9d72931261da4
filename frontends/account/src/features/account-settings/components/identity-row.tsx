import { useState } from 'react';
import {
  browser,
  Button,
  ErrorBanner,
  identityReturnUrl,
  openIdentityVerification,
  serverMessage,
  UNKNOWN_ERROR_MESSAGE,
  useCreateIdentityVerification,
  useIdentityVerification,
  useWidgetSettings,
  type IdentityVerificationStatus,
  type VerificationOutcome,
} from '@uplift/platform';

export const IDENTITY_SUBMITTED_MESSAGE =
  'Thank you. Stripe is checking your document and selfie; this usually takes a few minutes.';
export const IDENTITY_VERIFIED = 'Verified';
export const IDENTITY_NEEDS_INPUT = 'Needs more information';
export const IDENTITY_NEEDS_INPUT_NOTE =
  'Stripe could not confirm your identity from what was sent. Please try again with a clear photo of a valid ID.';
export const IDENTITY_CANCELED = 'Verification cancelled';
export const IDENTITY_NOT_VERIFIED = 'Verify who you are with a photo ID and a selfie, checked by Stripe.';

function statusText(status: IdentityVerificationStatus): string {
  switch (status) {
    case 'verified':
      return IDENTITY_VERIFIED;
    case 'requires_input':
      return IDENTITY_NEEDS_INPUT;
    case 'canceled':
      return IDENTITY_CANCELED;
    default:
      return IDENTITY_NOT_VERIFIED;
  }
}

/**
 * Identity verification (spec section 1's third-party widget) in Account
 * Settings: the server starts a Stripe Identity session for the signed-in
 * person and Stripe's modal takes the document and selfie; a session
 * without a client secret is opened on its hosted page instead (on the
 * local test stack, the stand-in for Stripe's), which leads back here.
 * Shown only when the widget is configured (a Stripe publishable key). The
 * outcome is what billing recorded from Stripe's webhooks.
 */
export function IdentityRow({ userId }: { userId: string }) {
  const { stripePublishableKey } = useWidgetSettings();
  const create = useCreateIdentityVerification();
  const [opening, setOpening] = useState(false);
  const [outcome, setOutcome] = useState<VerificationOutcome | null>(null);
  // The outcome recorded before this submission: polling stops once it changes.
  const [submittedOver, setSubmittedOver] = useState<string | null>(null);
  const checking = outcome?.status === 'submitted';
  const recorded = useIdentityVerification(
    stripePublishableKey ? userId : undefined,
    (latest) => checking && submittedOver === (latest?.updateTime ?? ''),
  );
  const updateTime = recorded.data?.updateTime ?? '';
  const waiting = checking && submittedOver === updateTime;
  if (!stripePublishableKey) return null;

  const status = (waiting ? '' : (recorded.data?.status ?? '')) as IdentityVerificationStatus;

  const verify = async () => {
    setOutcome(null);
    let session;
    try {
      session = await create.mutateAsync(identityReturnUrl(window.location.href));
    } catch {
      return; // create.error is shown below
    }
    if (!session.clientSecret && session.url) {
      browser.assign(session.url);
      return;
    }
    setOpening(true);
    try {
      const result = await openIdentityVerification(stripePublishableKey, session.clientSecret ?? '');
      setSubmittedOver(updateTime);
      setOutcome(result);
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
      <dd>{statusText(status)}</dd>
      <dd className="account-settings__actions">
        {status === 'requires_input' && (
          <p className="u-note u-note--warn" style={{ width: '100%' }}>
            {IDENTITY_NEEDS_INPUT_NOTE}
          </p>
        )}
        {status !== 'verified' && !waiting && (
          <Button variant="secondary" loading={create.isPending || opening} onClick={() => void verify()}>
            {status === 'requires_input' ? 'Try again' : 'Verify your identity'}
          </Button>
        )}
        {waiting && (
          <p role="status" className="u-note" style={{ width: '100%' }}>
            {IDENTITY_SUBMITTED_MESSAGE}
          </p>
        )}
        <ErrorBanner message={error} style={{ width: '100%' }} />
      </dd>
    </div>
  );
}
