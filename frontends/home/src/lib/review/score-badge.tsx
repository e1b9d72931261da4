import { bandOf } from '../score';

/** The score out of 100 with its band, coloured by band. */
export function ScoreBadge({ score = 0, band }: { score?: number; band?: string }) {
  const resolved = bandOf(band, score);
  return (
    <div className={`score score--${resolved}`} data-band={resolved}>
      <span className="score__value" aria-label={`Score ${score} out of 100`}>
        {score}
        <span className="u-muted" style={{ fontSize: '1rem', fontWeight: 500 }}>
          /100
        </span>
      </span>
      <span className="score__band">{resolved}</span>
    </div>
  );
}
