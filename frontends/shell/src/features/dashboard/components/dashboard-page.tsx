import { useState, type FormEvent } from 'react';
import { AuditLogList, browser, Button, ErrorBanner, LOADING_TEXT, serverMessage, switchMetricsCategory, toast, UNKNOWN_ERROR_MESSAGE, useAuditLog, useMetricsUsers, usePageTitle, type UserJson, useSession } from '@uplift/platform';

/** /dashboard, for uplifters: find a store owner and view the site as them. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const session = useSession();
  const uid = session.user?.uid ?? '';
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const owners = useMetricsUsers(query);
  const [switchingTo, setSwitchingTo] = useState<string | null>(null);
  const users = owners.data?.pages.flatMap((page) => page.users ?? []) ?? [];

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQuery(draft.trim());
  };

  const viewAs = async (owner: UserJson) => {
    if (!owner.categoryId || !owner.id) return;
    setSwitchingTo(owner.id);
    try {
      await switchMetricsCategory(uid, owner.categoryId);
      // A full reload, so nothing cached from the uplifter's own category survives.
      browser.assign('/');
    } catch (error) {
      toast.error(serverMessage(error, UNKNOWN_ERROR_MESSAGE));
      setSwitchingTo(null);
    }
  };

  return (
    <main className="u-page">
      <h1>Dashboard</h1>
      <p>Find a store owner by email or name and view the site as them.</p>
      <form className="inline-form" role="search" onSubmit={onSearch}>
        <input
          className="u-input"
          type="search"
          aria-label="Search store owners"
          placeholder="Email or name"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit">Search</Button>
      </form>
      {owners.isPending && <p>{LOADING_TEXT}</p>}
      <ErrorBanner message={owners.isError && serverMessage(owners.error, UNKNOWN_ERROR_MESSAGE)} />
      {owners.isSuccess && users.length === 0 && <p>No store owners found.</p>}
      {users.length > 0 && (
        <ul className="owners" aria-label="Store owners">
          {users.map((owner) => (
            <li key={owner.id}>
              <span>
                <strong>{owner.displayName || owner.email}</strong>
                {owner.displayName && <span className="u-muted"> {owner.email}</span>}
              </span>
              <Button
                variant="secondary"
                aria-label={`View as ${owner.email ?? owner.displayName ?? ''}`}
                loading={switchingTo === owner.id}
                disabled={!owner.categoryId || switchingTo !== null}
                onClick={() => void viewAs(owner)}
              >
                View as
              </Button>
            </li>
          ))}
        </ul>
      )}
      {owners.hasNextPage && (
        <Button variant="secondary" loading={owners.isFetchingNextPage} onClick={() => void owners.fetchNextPage()}>
          Load more
        </Button>
      )}
      <YourActions userId={uid} />
    </main>
  );
}

/** What this uplifter did on behalf of store owners, the last 90 days (the audit log). */
function YourActions({ userId }: { userId: string }) {
  const log = useAuditLog(userId || undefined, 'actor');
  return (
    <section className="u-card" aria-labelledby="your-actions-title" style={{ marginTop: '1.5rem' }}>
      <h2 id="your-actions-title">Your actions on behalf of others</h2>
      {log.isPending ? (
        <p>{LOADING_TEXT}</p>
      ) : log.isError ? (
        <ErrorBanner message={serverMessage(log.error, UNKNOWN_ERROR_MESSAGE)} />
      ) : (
        <AuditLogList entries={log.data.entries ?? []} role="actor" emptyText="You have not acted for anyone in the last 90 days." />
      )}
    </section>
  );
}
