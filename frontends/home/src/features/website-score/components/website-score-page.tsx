import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, CustomerReviews, ErrorBanner, openBusinessProfile, Spinner, usePageTitle, useSession, useWebsiteScore } from '@uplift/platform';
import { TextField } from '@uplift/platform/text-field';
import { FindingsList } from '../../../lib/review/findings-list';
import { PointsBreakdown } from '../../../lib/review/points-breakdown';
import { ScoreBadge } from '../../../lib/review/score-badge';
import { isAddressRefused, scoreErrorMessage } from '../lib/score-error';

/** The public website score (`/website-score?url=…`): works signed out. */
export function WebsiteScorePage() {
  usePageTitle('Website score');
  const [searchParams, setSearchParams] = useSearchParams();
  const url = searchParams.get('url')?.trim() || undefined;
  const [input, setInput] = useState(url ?? '');
  const score = useWebsiteScore(url);
  const failure = Boolean(url) && score.isError && scoreErrorMessage(score.error);
  const refusedAddress = isAddressRefused(score.error);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = input.trim();
    // The address holds the URL, so a result can be shared and reloaded.
    if (next) setSearchParams({ url: next });
    else if (url) void score.refetch();
  };

  return (
    <main className="u-page">
      <h1>Website score</h1>
      <p>Find out how well your store&apos;s website works for search, speed, mobile, trust and sales.</p>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label="Website URL"
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://yourstore.com"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          error={refusedAddress && failure}
          action={
            <Button type="submit" loading={score.isFetching}>
              Score my website
            </Button>
          }
        />
      </form>

      {url && score.isPending && (
        <p>
          <Spinner /> Reviewing {url}… this can take a few seconds.
        </p>
      )}
      <ErrorBanner message={!refusedAddress && failure} style={{ marginTop: '1rem' }} />
      {url && score.data && (
        <>
          <section className="u-card" aria-labelledby="score-title" style={{ marginTop: '1rem' }}>
            <h2 id="score-title">Score for {score.data.url || url}</h2>
            <ScoreBadge score={score.data.score} band={score.data.band} />
          </section>
          <section className="u-card" aria-labelledby="findings-title">
            <h2 id="findings-title">Findings</h2>
            <FindingsList findings={score.data.findings ?? []} />
          </section>
          {(score.data.checks?.length ?? 0) > 0 && (
            <section className="u-card" aria-labelledby="points-title">
              <h2 id="points-title">Where your points went</h2>
              <PointsBreakdown checks={score.data.checks ?? []} />
            </section>
          )}
        </>
      )}
      <SignUpInvite siteUrl={url} />
      <CustomerReviews />
    </main>
  );
}

/** Signing up from here carries the scored website along (`siteUrl`), so it is saved and reviewed at once. */
function SignUpInvite({ siteUrl }: { siteUrl: string | undefined }) {
  const session = useSession();
  const signUp = new URLSearchParams({ requireSignup: 'true', ...(siteUrl ? { siteUrl } : {}) });
  return (
    <section className="u-card" aria-labelledby="weekly-title" style={{ marginTop: '1rem' }}>
      <h2 id="weekly-title">Get a weekly review of your website</h2>
      <p>
        Uplift reviews your website every week, tells you what is new, fixed or still open, and turns it into campaign
        ideas for your store.
      </p>
      {session.status === 'signedIn' ? (
        <Button onClick={openBusinessProfile}>Add your website to your business profile</Button>
      ) : (
        <Link className="u-btn" to={`/?${signUp.toString()}`}>
          Sign up for weekly reviews
        </Link>
      )}
    </section>
  );
}
