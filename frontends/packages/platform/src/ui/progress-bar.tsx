export interface ProgressBarProps {
  /** What is progressing, for assistive technology ("Review progress"). */
  label: string;
  /** 0–100; values outside are clamped. */
  percent: number;
}

/** A determinate progress bar: one look and one accessible shape everywhere. */
export function ProgressBar({ label, percent }: ProgressBarProps) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className="u-progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <div className="u-progress__bar" style={{ width: `${value}%` }} />
    </div>
  );
}
