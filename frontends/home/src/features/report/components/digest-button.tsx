import { Button, serverMessage } from '@uplift/platform';
import { useSendAIEmailDigest } from '../api/send-ai-email-digest';

/**
 * Sends the AI email digest (the current insights and campaign ideas) to the
 * owner's account email now, and says, beside the button, that it went or why not.
 */
export function DigestButton({ categoryId }: { categoryId: string }) {
  const send = useSendAIEmailDigest(categoryId);
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '.5rem .75rem', marginTop: '1rem' }}>
      <Button variant="secondary" loading={send.isPending} disabled={send.isPending} onClick={send.send}>
        Email me the AI digest
      </Button>
      <span role="status" className="u-muted">
        {send.isSuccess && 'Sent: your insights and campaign ideas are on their way to your account email.'}
      </span>
      {send.isError && (
        <p role="alert" className="u-alert" style={{ flexBasis: '100%', margin: 0 }}>
          {serverMessage(send.error, 'The digest could not be sent. Please try again.')}
        </p>
      )}
    </div>
  );
}
