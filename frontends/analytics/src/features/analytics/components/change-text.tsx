import { NOT_AVAILABLE, type FormattedChange } from '@uplift/platform';

/** "+12.5 %" in green, "−3.0 %" in red; the sign says it without the colour. "—" when there is nothing to compare. */
export function ChangeText({ change }: { change: FormattedChange }) {
  if (change.direction === null) {
    return (
      <span className="u-change u-change--neutral">
        <span aria-hidden="true">{NOT_AVAILABLE}</span>
        <span className="u-sr-only">no change to show</span>
      </span>
    );
  }
  return <span className={`u-change u-change--${change.tone}`}>{change.text}</span>;
}
