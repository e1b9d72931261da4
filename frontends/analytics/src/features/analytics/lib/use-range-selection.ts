import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { StoreDateRange } from '@uplift/platform';
import { RANGE_PARAMS, resolveRange, type RangeChoice, type RangeSelection } from './date-range';

export interface RangeSelectionState extends RangeSelection {
  /** Picks a preset, or "custom" starting from `current` (the range shown now). */
  choose: (choice: RangeChoice, current?: StoreDateRange) => void;
  /** Changes one end of the custom range. */
  setCustom: (end: 'from' | 'to', value: string) => void;
}

/**
 * The date range, kept in the address's query string so a reload or a shared
 * link shows the same numbers. Other query parameters are left alone. Picking
 * a range adds a history entry; typing a custom date replaces it, so Back
 * does not step through every keystroke. `today` is the store's, once the
 * server has said it (never the browser's: the viewer may be on another date).
 */
export function useRangeSelection(today?: string): RangeSelectionState {
  const [params, setParams] = useSearchParams();
  const selection = useMemo(() => resolveRange(params, today), [params, today]);

  const choose = useCallback(
    (choice: RangeChoice, current?: StoreDateRange) => {
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.set(RANGE_PARAMS.choice, choice);
        if (choice === 'custom') {
          if (current) {
            next.set(RANGE_PARAMS.from, current.from);
            next.set(RANGE_PARAMS.to, current.to);
          }
        } else {
          next.delete(RANGE_PARAMS.from);
          next.delete(RANGE_PARAMS.to);
        }
        return next;
      });
    },
    [setParams],
  );

  const setCustom = useCallback(
    (end: 'from' | 'to', value: string) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set(RANGE_PARAMS.choice, 'custom');
          next.set(end === 'from' ? RANGE_PARAMS.from : RANGE_PARAMS.to, value);
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  return { ...selection, choose, setCustom };
}
