import type { CompetitorScoreJson } from '@uplift/platform';
import { bandOf } from '../../../lib/score';

const groupNames: Record<string, string> = {
  search: 'Search',
  speed: 'Speed',
  mobile: 'Mobile',
  trust: 'Trust',
  conversion: 'Conversion',
};

function host(siteUrl: string | undefined): string {
  try {
    return new URL(siteUrl ?? '').host || siteUrl || '';
  } catch {
    return siteUrl ?? '';
  }
}

/**
 * The business's competitors (from its profile) reviewed like its own website
 * when this review ran: score and band side by side with the store's, and the
 * areas where each one does better. A competitor that could not be read says so.
 */
export function CompetitorsCard({
  score,
  band,
  competitors,
}: {
  score: number | undefined;
  band: string | undefined;
  competitors: CompetitorScoreJson[];
}) {
  if (competitors.length === 0) return null;
  return (
    <section className="u-card" aria-labelledby="competitors-title">
      <h2 id="competitors-title">Your competitors</h2>
      <p className="u-muted">Reviewed with the same checks as your website (speed in a browser is measured for yours only).</p>
      <div className="u-table-scroll">
        <table className="u-table">
          <thead>
            <tr>
              <th scope="col">Website</th>
              <th scope="col">Score</th>
              <th scope="col">Band</th>
              <th scope="col">Where they beat you</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Your website</th>
              <td>{score ?? 0}/100</td>
              <td>{bandOf(band, score ?? 0)}</td>
              <td>—</td>
            </tr>
            {competitors.map((competitor) => (
              <tr key={competitor.siteUrl}>
                <th scope="row">{host(competitor.siteUrl)}</th>
                {competitor.reviewed ? (
                  <>
                    <td>{competitor.score ?? 0}/100</td>
                    <td>{bandOf(competitor.band, competitor.score ?? 0)}</td>
                    <td>
                      {(competitor.wins?.length ?? 0) > 0
                        ? (competitor.wins ?? []).map((group) => groupNames[group] ?? group).join(', ')
                        : 'Nowhere: you match or beat them'}
                    </td>
                  </>
                ) : (
                  <td colSpan={3} className="u-muted">
                    {competitor.errorMessage || 'Not reviewed.'}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
