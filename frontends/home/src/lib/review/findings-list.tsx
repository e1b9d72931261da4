import { useId, useState } from 'react';
import { Link } from 'react-router';
import { STUDIO_PHOTO_LINK_TEXT, studioPath, type FindingJson } from '@uplift/platform';
import { groupRank, humanize } from '../score';


export interface FindingsListProps {
  findings: FindingJson[];
  /**
   * Whether a finding about images leads to the studio, on the page's product
   * (the owner's own review; the public score reviews anyone's site).
   */
  studioLinks?: boolean;
}

/**
 * Findings grouped by area, one row per issue; each opens to show why it
 * matters, the exact fix and every page or resource it was found on. "New"
 * means new since the last review: a first review has none (its findings
 * come as "open").
 */
export function FindingsList({ findings, studioLinks = false }: FindingsListProps) {
  if (findings.length === 0) {
    return <p className="u-muted">No problems found. Nice work: every check passed.</p>;
  }
  const groups = new Map<string, FindingJson[]>();
  for (const finding of findings) {
    const group = finding.group || 'other';
    groups.set(group, [...(groups.get(group) ?? []), finding]);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => groupRank(a) - groupRank(b) || a.localeCompare(b));
  return (
    <div className="findings">
      {ordered.map(([group, items]) => (
        <section key={group} aria-label={humanize(group)}>
          <h3 className="findings__group">{humanize(group)}</h3>
          {items.map((finding, index) => (
            <FindingItem key={finding.id || `${group}-${index}`} finding={finding} studioLink={studioLinks && isImageCheck(finding.check)} />
          ))}
        </section>
      ))}
    </div>
  );
}

/** The review's checks about a page's images: image-alt and image-weight. */
const isImageCheck = (check: string | undefined) => Boolean(check?.startsWith('image-'));

function FindingItem({ finding, studioLink }: { finding: FindingJson; studioLink: boolean }) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const state = finding.state;
  const places = finding.places ?? [];
  return (
    <div className="finding">
      <button
        type="button"
        className="finding__toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        <span className="finding__title">{finding.title || humanize(finding.check)}</span>
        {state === 'new' && <span className="u-badge u-badge--new">New</span>}
        {state === 'fixed' && <span className="u-badge u-badge--fixed">Fixed</span>}
        {Boolean(finding.pointsLost) && <span className="finding__points">−{finding.pointsLost} pts</span>}
      </button>
      {open && (
        <dl id={bodyId} className="finding__body">
          {finding.why && (
            <>
              <dt>Why it matters</dt>
              <dd>{finding.why}</dd>
            </>
          )}
          {finding.fix && (
            <>
              <dt>How to fix it</dt>
              <dd>{finding.fix}</dd>
            </>
          )}
          {places.length > 1 ? (
            <>
              {/* One issue found in several places: one row, every place inside it. */}
              <dt>Found in {places.length} places</dt>
              <dd>
                <ul>
                  {places.map((place, index) => (
                    <li key={`${place.url}-${index}`}>
                      {place.url && (
                        <a href={place.url} target="_blank" rel="noreferrer noopener">
                          {place.url}
                        </a>
                      )}
                      {place.element && (
                        <>
                          {' '}
                          <code>{place.element}</code>
                        </>
                      )}
                      {place.fix && <div>{place.fix}</div>}
                      {studioLink && place.url && (
                        <div>
                          <Link to={studioPath(place.url)} aria-label={`${STUDIO_PHOTO_LINK_TEXT} for ${place.url}`}>
                            {STUDIO_PHOTO_LINK_TEXT}
                          </Link>
                        </div>
                      )}
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : (
            <>
              {finding.url && (
                <>
                  <dt>Page</dt>
                  <dd>
                    <a href={finding.url} target="_blank" rel="noreferrer noopener">
                      {finding.url}
                    </a>
                  </dd>
                </>
              )}
              {finding.element && (
                <>
                  <dt>Element</dt>
                  <dd>
                    <code>{finding.element}</code>
                  </dd>
                </>
              )}
            </>
          )}
          {studioLink && places.length <= 1 && (
            <>
              <dt>A better photo</dt>
              <dd>
                {/* The page's address: the studio opens the product it shows, or says it is not a product page. */}
                <Link to={studioPath(finding.url)}>{STUDIO_PHOTO_LINK_TEXT}</Link>
              </dd>
            </>
          )}
        </dl>
      )}
    </div>
  );
}
