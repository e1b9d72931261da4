import { Link } from 'react-router';
import { useDailyReport, type FindingJson, type IdeaJson, type ReportJson } from '@uplift/platform';

export interface StartHereProps {
  categoryId: string;
  report: ReportJson | undefined;
  ideas: IdeaJson[] | undefined;
}

const column = { margin: 0 } as const;
const list = { margin: '.25rem 0', paddingLeft: '1.1rem' } as const;

/**
 * What to do first, on Home's first screen at any width: yesterday's report
 * in its own headline, the fixes worth the most points and the newest ideas,
 * each leading to its full card below (the ideas used to sit under a 29-row
 * table, 3,660 px down).
 */
export function StartHere({ categoryId, report, ideas }: StartHereProps) {
  const daily = useDailyReport(categoryId).data;
  const ready = report?.status === 'REPORT_STATUS_READY';
  const shownIdeas = (ideas?.length ? ideas : (report?.ideas ?? [])).filter((idea) => idea.id).slice(0, 3);
  const fixes = ready ? topFixes(report.findings ?? []) : [];
  if (!ready && daily?.status !== 'READY' && shownIdeas.length === 0) return null;
  return (
    <section className="u-card" aria-labelledby="start-here-title">
      <h2 id="start-here-title">Start here</h2>
      <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 15rem), 1fr))' }}>
        <div>
          <h3 style={column}>Your daily report</h3>
          {daily?.status === 'READY' ? (
            <>
              <p style={list}>{daily.headline}</p>
              <a href="#daily-report">Yesterday&apos;s numbers and the suggested action</a>
            </>
          ) : (
            <p style={list}>
              No store data yet. <Link to="/connections">Connect your store</Link>
            </p>
          )}
        </div>
        <div>
          <h3 style={column}>Top fixes</h3>
          {fixes.length > 0 ? (
            <>
              <ol style={list}>
                {fixes.map((f) => (
                  <li key={f.id || f.check}>
                    {f.title} <span className="finding__points">−{f.pointsLost} pts</span>
                  </li>
                ))}
              </ol>
              <a href="#findings-title">How to fix each one</a>
            </>
          ) : (
            <p style={list}>{ready ? 'Nothing to fix: every check passed.' : 'They show once your website is reviewed.'}</p>
          )}
        </div>
        <div>
          <h3 style={column}>Ideas to try</h3>
          {shownIdeas.length > 0 ? (
            <ul style={list}>
              {shownIdeas.map((idea) => (
                <li key={idea.id}>
                  <Link to={`ideas/${encodeURIComponent(idea.id!)}`}>{idea.title || 'Untitled idea'}</Link>
                </li>
              ))}
            </ul>
          ) : (
            <p style={list}>They show once your website is reviewed.</p>
          )}
        </div>
      </div>
    </section>
  );
}

/** The three open findings that cost the most points, one per check (a check can fail on several pages). */
export function topFixes(findings: FindingJson[]): FindingJson[] {
  const byCheck = new Map<string, FindingJson>();
  for (const f of findings) {
    const key = f.check || f.title || '';
    if (f.state === 'fixed' || !f.pointsLost || byCheck.has(key)) continue;
    byCheck.set(key, f);
  }
  return [...byCheck.values()].sort((a, b) => (b.pointsLost ?? 0) - (a.pointsLost ?? 0)).slice(0, 3);
}
