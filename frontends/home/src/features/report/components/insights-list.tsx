import type { InsightJson } from '@uplift/platform';

export function InsightsList({ insights }: { insights: InsightJson[] }) {
  if (insights.length === 0) return <p className="u-muted">No insights yet. They appear with your next review.</p>;
  return (
    <ul>
      {insights.map((insight, index) => (
        <li key={insight.id || index}>
          <p style={{ margin: 0 }}>{insight.text}</p>
          {insight.evidence && <p className="insight__evidence">Evidence: {insight.evidence}</p>}
        </li>
      ))}
    </ul>
  );
}
