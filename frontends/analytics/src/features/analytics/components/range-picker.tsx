import { useId } from 'react';
import { TextField } from '@uplift/platform/text-field';
import { RANGE_PRESETS, type RangeChoice } from '../lib/date-range';
import type { RangeSelectionState } from '../lib/use-range-selection';
import type { StoreDateRange } from '@uplift/platform';

/**
 * Last 7 / 30 / 90 days (whole days, ending yesterday in the store's time
 * zone) or a custom range (two dates, checked before anything is asked
 * for). `today` is the store's, when known; `shown` is the range on screen,
 * where a custom range starts.
 */
export function RangePicker({
  selection,
  today,
  shown,
}: {
  selection: RangeSelectionState;
  today: string | undefined;
  shown: StoreDateRange | undefined;
}) {
  const errorId = useId();
  const custom = selection.choice === 'custom';
  const invalid = Boolean(selection.error);
  return (
    <>
      <div className="range-picker">
        <label className="u-field">
          Date range
          <select
            className="u-input"
            value={selection.choice}
            onChange={(event) => selection.choose(event.target.value as RangeChoice, shown)}
          >
            {RANGE_PRESETS.map((preset) => (
              <option key={preset.id} value={preset.id}>
                {preset.label}
              </option>
            ))}
            <option value="custom">Custom</option>
          </select>
        </label>
        {custom && (
          <>
            <TextField
              label="From"
              type="date"
              value={selection.customFrom}
              max={today}
              sharedErrorId={invalid ? errorId : undefined}
              onChange={(event) => selection.setCustom('from', event.target.value)}
            />
            <TextField
              label="To"
              type="date"
              value={selection.customTo}
              max={today}
              sharedErrorId={invalid ? errorId : undefined}
              onChange={(event) => selection.setCustom('to', event.target.value)}
            />
          </>
        )}
      </div>
      {selection.error && (
        <p id={errorId} role="alert" className="u-alert">
          {selection.error}
        </p>
      )}
    </>
  );
}
