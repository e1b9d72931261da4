import { useId, useState } from 'react';
import type { FindingJson } from '@uplift/platform';
import { groupRank, humanize } from '../score';

/** Findings grouped by area; each opens to show why it matters and the exact fix. */
export function FindingsList({ findings }: { findings: FindingJson[] }) {
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
            <FindingItem key={finding.id || `${group}-${index}`} finding={finding} />
          ))}
        </section>
      ))}
    </div>
  );
}

function FindingItem({ finding }: { finding: FindingJson }) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const state = finding.state;
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
        </dl>
      )}
    </div>
  );
}
