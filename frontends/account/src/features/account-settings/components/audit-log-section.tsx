import { AuditLogList, ErrorBanner, Spinner, useAuditLog } from '@uplift/platform';

/** Who acted on the owner's behalf and what they changed, the last 90 days. */
export function AuditLogSection({ userId }: { userId: string }) {
  const log = useAuditLog(userId, 'subject');
  return (
    <section className="account-settings__audit" aria-labelledby="audit-log-title">
      <h3 id="audit-log-title">Who acted for you</h3>
      <p className="u-muted">Changes made on your behalf by our team or an admin in the last 90 days.</p>
      {log.isPending ? (
        <Spinner label="Loading who acted for you" />
      ) : log.isError ? (
        <ErrorBanner message="The list could not be loaded. Please try again later." />
      ) : (
        <AuditLogList entries={log.data.entries ?? []} role="subject" emptyText="Nobody has acted on your behalf." />
      )}
    </section>
  );
}
