import type { CheckResultJson } from '@uplift/platform';
import { groupRank, humanize } from '../score';

/**
 * "Where your points went": every check's weight and what it earned, biggest
 * losses first, so the owner can see exactly how the score adds up.
 */
export function PointsBreakdown({ checks }: { checks: CheckResultJson[] }) {
  if (checks.length === 0) return null;
  const lost = (check: CheckResultJson) => (check.weight ?? 0) - (check.earned ?? 0);
  const rows = [...checks].sort(
    (a, b) => lost(b) - lost(a) || groupRank(a.group ?? '') - groupRank(b.group ?? ''),
  );
  const earned = checks.reduce((sum, check) => sum + (check.earned ?? 0), 0);
  const possible = checks.reduce((sum, check) => sum + (check.weight ?? 0), 0);
  return (
    <table className="points">
      <caption className="u-muted" style={{ textAlign: 'left', marginBottom: '.5rem' }}>
        {earned} of {possible} points earned
      </caption>
      <thead>
        <tr>
          <th scope="col">Check</th>
          <th scope="col">Area</th>
          <th scope="col">Points</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((check, index) => (
          <tr key={`${check.group}-${check.check}-${index}`}>
            <td>{check.name || humanize(check.check)}</td>
            <td>{humanize(check.group)}</td>
            <td>
              {check.earned ?? 0} / {check.weight ?? 0}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
