import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type PointerEvent } from 'react';
import { placeTip } from './place-tip';

export interface FormulaHintProps {
  /** The metric's name, for the button's accessible name ("How Net sales is counted"). */
  label: string;
  /** The text shown: how the number is counted. */
  formula: string;
  /** The id of the element showing the number explained, which the tooltip never covers. */
  valueId?: string;
}

/** How far the button may move before a scroll counts as one (sub-pixel layout jitter does not). */
const MOVED_PX = 2;

/**
 * A small info button next to a metric's label that shows how the number is
 * counted. The tooltip opens on mouse hover and on keyboard focus; a click or
 * tap keeps it open until a second click, a tap elsewhere, Escape or a
 * scroll (of the page or of a table that holds it: the tooltip would
 * otherwise float away from what it explains). It stays in the DOM (hidden)
 * so the button's aria-describedby always names it, and it is placed with
 * fixed positioning inside the viewport, beside the number rather than over
 * it (placeTip), so it never widens the page or gets cut off by a scrolling
 * table.
 */
export function FormulaHint({ label, formula, valueId }: FormulaHintProps) {
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
    let placedAt: DOMRect | undefined;
    const place = () => {
      const button = buttonRef.current;
      const tip = tipRef.current;
      if (!button || !tip) return;
      placedAt = button.getBoundingClientRect();
      const value = valueId ? document.getElementById(valueId)?.getBoundingClientRect() : undefined;
      const { width, height } = tip.getBoundingClientRect();
      const p = placeTip(placedAt, value ? [value] : [], { width, height }, { width: window.innerWidth, height: window.innerHeight });
      tip.style.left = `${Math.round(p.left)}px`;
      tip.style.top = `${Math.round(p.top)}px`;
    };
    // A scroll that moved the button closes the tooltip; one that did not
    // (the scroll a keyboard focus brought, arriving after it) changes nothing.
    const onScroll = () => {
      const now = buttonRef.current?.getBoundingClientRect();
      if (now && placedAt && Math.max(Math.abs(now.top - placedAt.top), Math.abs(now.left - placedAt.left)) > MOVED_PX) {
        setHovered(false);
        close();
      }
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', onScroll, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [open, valueId, close]);

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
