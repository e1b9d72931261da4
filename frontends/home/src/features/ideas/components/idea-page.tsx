import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import {
  ErrorCard,
  isHttpError,
  Spinner,
  STUDIO_PHOTO_LINK_TEXT,
  studioPath,
  useCategoryId,
  useIdea,
  usePageTitle,
  useSession,
  useStoreFormat,
  trackEvent,
  type IdeaJson,
} from '@uplift/platform';
import { channelWords } from '../../../lib/ideas/channel';

/** One campaign idea with everything needed to run it (`/ideas/:ideaId`). */
export function IdeaPage() {
  const { ideaId } = useParams();
  const session = useSession();
  return (
    <main className="u-page">
      <p>
        <Link to="/">← Back to Home</Link>
      </p>
      {session.status === 'signedIn' ? (
        <IdeaContent ideaId={ideaId} />
      ) : (
        <p>Sign in to see this campaign idea.</p>
      )}
    </main>
  );
}

function IdeaContent({ ideaId }: { ideaId: string | undefined }) {
  const { categoryId, isPending } = useCategoryId();
  const idea = useIdea(categoryId, ideaId);
  usePageTitle(idea.data?.title || 'Campaign idea');
  if (isPending || idea.isPending) {
    return (
      <p>
        <Spinner /> Loading the idea…
      </p>
    );
  }
  if (idea.isError) {
    // A missing idea gets a way back; any other failure (a malformed id is a
    // 400) is a status for the route error boundary to show.
    if (!isHttpError(idea.error) || idea.error.status !== 404) throw idea.error;
    return (
      <ErrorCard title="We couldn't load this idea">
        <p>It may have been replaced by newer ideas. Go back to Home to see your latest ones.</p>
      </ErrorCard>
    );
  }
  return <OpenedIdea idea={idea.data} />;
}

/** The idea, counted once as opened (analytics, after consent). */
function OpenedIdea({ idea }: { idea: IdeaJson }) {
  useEffect(() => trackEvent('idea_opened', { idea_id: idea.id ?? '' }), [idea.id]);
  return <IdeaDetails idea={idea} />;
}

export function IdeaDetails({ idea }: { idea: IdeaJson }) {
  const format = useStoreFormat();
  const created = idea.createTime ? new Date(idea.createTime) : undefined;
  // Only an email has a subject line: a post or an ad says its own words.
  const words = channelWords(idea.channel);
  return (
    <article>
      <h1>{idea.title || 'Campaign idea'}</h1>
      {created && !Number.isNaN(created.getTime()) && (
        <p className="u-muted">Suggested on {format.momentDay(created)}</p>
      )}
      <section className="u-card" aria-labelledby="why-now">
        <h2 id="why-now">Why now</h2>
        <p>{idea.whyNow || '—'}</p>
      </section>
      <section className="u-card" aria-labelledby="campaign">
        <h2 id="campaign">The campaign</h2>
        <dl>
          <dt>Channel</dt>
          <dd>{words.name}</dd>
          <dt>Timing</dt>
          <dd>{idea.timing || '—'}</dd>
          <dt>{words.lead}</dt>
          <dd>{idea.subjectLine || '—'}</dd>
        </dl>
      </section>
      <section className="u-card" aria-labelledby="body">
        <h2 id="body">{words.copy}</h2>
        <p style={{ whiteSpace: 'pre-wrap' }}>{idea.body || '—'}</p>
      </section>
      <section className="u-card" aria-labelledby="products">
        <h2 id="products">Products to feature</h2>
        {(idea.products?.length ?? 0) > 0 ? (
          <ul>
            {idea.products?.map((product) => (
              <li key={product}>
                {product}{' '}
                <Link
                  to={studioPath(product)}
                  aria-label={`${STUDIO_PHOTO_LINK_TEXT} of ${product}`}
                >
                  {STUDIO_PHOTO_LINK_TEXT}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="u-muted">No specific products.</p>
        )}
      </section>
    </article>
  );
}
