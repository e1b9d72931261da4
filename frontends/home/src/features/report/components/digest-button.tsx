import { Button, serverMessage, useSendAIEmailDigest } from '@uplift/platform';

/**
 * Sends the AI email digest (the current insights and campaign ideas) to the
 * owner's account email now, and says, beside the button, that it went or why not.
 */
export function DigestButton({ categoryId }: { categoryId: string }) {
  const send = useSendAIEmailDigest();
  return (
    <div className="digest">
      <Button variant="secondary" loading={send.isPending} disabled={send.isPending} onClick={() => send.mutate(categoryId)}>
        Email me the AI digest
      </Button>
      <span role="status" className="u-muted">
        {send.isSuccess && 'Sent: your insights and campaign ideas are on their way to your account email.'}
      </span>
      {send.isError && (
        <p role="alert" className="u-alert digest__error">
          {serverMessage(send.error, 'The digest could not be sent. Please try again.')}
        </p>
      )}
    </div>
  );
}
