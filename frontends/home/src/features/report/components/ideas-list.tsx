import { Link } from 'react-router';
import type { IdeaJson } from '@uplift/platform';

/** Recent ideas, each opening its own page (a path relative to Home). */
export function IdeasList({ ideas }: { ideas: IdeaJson[] }) {
  if (ideas.length === 0) {
    return <p className="u-muted">No campaign ideas yet. We write them once your website has been reviewed.</p>;
  }
  return (
    <ul className="ideas">
      {ideas.map((idea, index) =>
        idea.id ? (
          <li key={idea.id}>
            <Link to={`ideas/${encodeURIComponent(idea.id)}`}>
              <strong>{idea.title || 'Untitled idea'}</strong>
              {idea.channel && <span className="u-muted"> · {idea.channel}</span>}
              {idea.whyNow && (
                <span className="u-muted" style={{ display: 'block' }}>
                  {idea.whyNow}
                </span>
              )}
            </Link>
          </li>
        ) : (
          <li key={index}>{idea.title}</li>
        ),
      )}
    </ul>
  );
}
