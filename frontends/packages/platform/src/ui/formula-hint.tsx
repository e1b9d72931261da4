import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type PointerEvent } from 'react';

export interface FormulaHintProps {
  /** The metric's name, for the button's accessible name ("How Net sales is counted"). */
  label: string;
  /** The text shown: how the number is counted. */
  formula: string;
}

/** Space kept between the tooltip and the viewport's edges, in pixels. */
const EDGE_PX = 8;
const GAP_PX = 6;

/**
 * A small info button next to a metric's label that shows how the number is
 * counted. The tooltip opens on mouse hover and on keyboard focus; a click or
 * tap keeps it open until a second click, a tap elsewhere or Escape. It stays
 * in the DOM (hidden) so the button's aria-describedby always names it, and it
 * is placed with fixed positioning inside the viewport, so it never widens the
 * page or gets cut off by a scrolling table.
 */
export function FormulaHint({ label, formula }: FormulaHintProps) {
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const tipRef = useRef<HTMLSpanElement>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [pinned, setPinned] = useState(false);
  // Escape or a second click hides the tooltip until the next hover, focus or click.
  const [dismissed, setDismissed] = useState(false);
  const open = !dismissed && (hovered || focused || pinned);

  const close = useCallback(() => {
    setPinned(false);
    setDismissed(true);
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    const onPointerDown = (event: globalThis.PointerEvent | MouseEvent) => {
      if (!buttonRef.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open, close]);

  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const button = buttonRef.current;
      const tip = tipRef.current;
      if (!button || !tip) return;
      const anchor = button.getBoundingClientRect();
      const size = tip.getBoundingClientRect();
      const maxLeft = window.innerWidth - size.width - EDGE_PX;
      const left = Math.max(EDGE_PX, Math.min(anchor.left + anchor.width / 2 - size.width / 2, maxLeft));
      const below = anchor.bottom + GAP_PX;
      const top = below + size.height > window.innerHeight - EDGE_PX ? anchor.top - size.height - GAP_PX : below;
      tip.style.left = `${Math.round(left)}px`;
      tip.style.top = `${Math.round(Math.max(EDGE_PX, top))}px`;
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, [open]);

  // Touch devices send emulated hover around a tap; the tap itself is the click.
  const isMouse = (event: PointerEvent) => event.pointerType !== 'touch' && event.pointerType !== 'pen';

  return (
    <span className="u-hint">
      <button
        ref={buttonRef}
        type="button"
        className="u-hint__button"
        aria-label={`How ${label} is counted`}
        aria-describedby={id}
        onPointerEnter={(event) => {
          if (!isMouse(event)) return;
          setHovered(true);
          setDismissed(false);
        }}
        onPointerLeave={(event) => {
          if (isMouse(event)) setHovered(false);
        }}
        onFocus={() => {
          setFocused(true);
          setDismissed(false);
        }}
        onBlur={() => {
          setFocused(false);
          setPinned(false);
        }}
        onClick={() => {
          if (pinned) {
            close();
          } else {
            setPinned(true);
            setDismissed(false);
          }
        }}
      >
        <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
          <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <circle cx="8" cy="4.75" r="1" fill="currentColor" />
          <path d="M8 7v5" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      </button>
      <span ref={tipRef} id={id} role="tooltip" className="u-hint__tip" hidden={!open}>
        {formula}
      </span>
    </span>
  );
}
