import type { SpeedJson } from '@uplift/platform';

type Rating = 'good' | 'needs-improvement' | 'poor';

const ratingWords: Record<Rating, string> = {
  good: 'good',
  'needs-improvement': 'needs work',
  poor: 'poor',
};

/** web.dev's rating in words, or a dash where the metric was not rated. */
function ratingOf(ratings: Record<string, string>, key: string): string {
  const rating = ratings[key];
  return rating && rating in ratingWords ? ratingWords[rating as Rating] : '—';
}

/** A JSON double may arrive as "NaN" or "Infinity"; those are not numbers to show. */
function num(value: number | string | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : Number(value ?? NaN);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function kilobytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

interface Row {
  key: string;
  name: string;
  what: string;
  value: string;
}

/**
 * The home page's speed as a phone on slow 4G measured it in a real browser
 * (the review worker's Chromium), metric by metric with web.dev's rating, and
 * the slowest element named. When no browser measured it, it says so and why:
 * no numbers are made up.
 */
export function SpeedCard({ speed }: { speed: SpeedJson | undefined }) {
  return (
    <section className="u-card" aria-labelledby="speed-title">
      <h2 id="speed-title">Speed on a phone</h2>
      {speed?.measured ? (
        <Measured speed={speed} />
      ) : (
        <p className="u-muted" data-testid="speed-not-measured">
          {speed?.reason ||
            'Speed was not measured in a browser for this review. The rest of the review stands; the next review measures it.'}
        </p>
      )}
    </section>
  );
}

function Measured({ speed }: { speed: SpeedJson }) {
  const ratings = speed.ratings ?? {};
  const runs = speed.runs ?? 1;
  const rows: Row[] = [];
  const lcp = num(speed.lcpMs);
  const fcp = num(speed.fcpMs);
  const si = num(speed.speedIndexMs);
  const tbt = num(speed.tbtMs);
  const inp = num(speed.inpMs);
  const cls = num(speed.cls);
  if (!speed.painted) {
    rows.push({ key: 'fcp', name: 'First paint', what: 'when anything first shows', value: `nothing in ${seconds(fcp)}` });
  } else {
    rows.push({ key: 'lcp', name: 'Largest paint (LCP)', what: 'when the main content shows', value: seconds(lcp) });
    rows.push({ key: 'fcp', name: 'First paint (FCP)', what: 'when anything first shows', value: seconds(fcp) });
    if (si > 0) rows.push({ key: 'si', name: 'Speed Index', what: 'how quickly the screen fills in', value: seconds(si) });
  }
  rows.push({ key: 'tbt', name: 'Blocking time (TBT)', what: 'how long scripts keep taps waiting', value: `${Math.round(tbt)} ms` });
  rows.push({
    key: 'inp',
    name: 'Response to a tap (INP, lab estimate)',
    what: 'the longest wait a tap could meet while loading',
    value: `${Math.round(inp)} ms`,
  });
  rows.push({ key: 'cls', name: 'Layout shift (CLS)', what: 'how much the page jumps while loading', value: cls.toFixed(2) });
  const bytes = num(speed.totalBytes);
  return (
    <>
      <p>
        <strong data-testid="speed-score">{speed.score ?? 0}/100</strong>{' '}
        <span className="u-muted">
          as a phone on slow 4G, median of {runs} {runs === 1 ? 'load' : 'loads'} in a real browser (Lighthouse&apos;s
          scoring)
        </span>
      </p>
      <div className="u-table-scroll">
        <table className="u-table">
          <thead>
            <tr>
              <th scope="col">Measure</th>
              <th scope="col">Your page</th>
              <th scope="col">Rating</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} data-metric={row.key}>
                <td>
                  {row.name}
                  <br />
                  <span className="u-muted">{row.what}</span>
                </td>
                <td>{row.value}</td>
                <td>{ratingOf(ratings, row.key)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {bytes > 0 && <p className="u-muted">{kilobytes(bytes)} downloaded to show the page.</p>}
      {speed.lcpElement && (
        <p data-testid="speed-slowest">
          Slowest element: <code>{speed.lcpElement}</code>
          {lcp > 0 && ` (shown after ${seconds(lcp)})`}
        </p>
      )}
      {(speed.shifted?.length ?? 0) > 0 && (
        <p>
          Moved while loading: <code>{(speed.shifted ?? []).join(', ')}</code>
        </p>
      )}
    </>
  );
}
