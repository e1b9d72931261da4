import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export type DialogSize = 'lg' | '2xl' | '3xl' | '4xl' | '5xl';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  size?: DialogSize;
  children?: ReactNode;
}

/** What takes the focus when a dialog opens: its first field or action, not the Close button. */
const FIRST_FOCUS =
  'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]):not(.u-dialog__close), a[href]';

/** Every control Tab stops at, for keeping the focus inside the dialog. */
const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function tabbables(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0);
}

/**
 * Focuses the panel's first field or action. A dialog whose form arrives
 * after a load (the Business profile) has none yet: the first one to appear
 * takes the focus, unless the person has put it somewhere in the dialog.
 */
function focusFirst(panel: HTMLElement): () => void {
  const tryFocus = () => {
    const first = panel.querySelector<HTMLElement>(FIRST_FOCUS);
    if (!first) return false;
    first.focus();
    return true;
  };
  if (tryFocus()) return () => {};
  const observer = new MutationObserver(() => {
    if ((panel.contains(document.activeElement) && document.activeElement !== panel) || tryFocus()) observer.disconnect();
  });
  observer.observe(panel, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/**
 * A modal dialog; Escape or a click outside the panel closes it (spec section
 * 2), and so does its visible Close button, for those who would not guess either.
 * Opening it moves the focus into it, so a keyboard user starts where the dialog does.
 */
export function Dialog({ open, onClose, title, description, size = 'lg', children }: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);

  // A dialog that turns into another (Sign in → Sign up) takes the focus to
  // its start again: the control that switched it may be gone, and the focus
  // with it, behind the dialog.
  const page = typeof title === 'string' ? title : undefined;
  useEffect(() => {
    if (!open || !panelRef.current) return;
    return focusFirst(panelRef.current);
  }, [open, page]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      // A modal keeps the focus: Tab after Close (the last stop) goes back
      // to the first field, Shift+Tab before the first field to Close.
      const panel = panelRef.current;
      if (event.key !== 'Tab' || !panel) return;
      // Only the topmost of stacked dialogs holds the focus.
      const modals = document.querySelectorAll('[aria-modal="true"]');
      if (modals[modals.length - 1] !== panel) return;
      const stops = tabbables(panel);
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      const wrap = !panel.contains(active) || (event.shiftKey ? active === first : active === last);
      if (wrap) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, onClose]);

  if (!open) return null;
  return createPortal(
    <div
      className="u-overlay"
      data-testid="dialog-overlay"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        className={`u-dialog u-dialog--${size}`}
      >
        {/* The body scrolls under the Close button, which stays in the corner. */}
        <div className="u-dialog__body">
          <h2 id={titleId} className="u-dialog__title">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="u-dialog__description">
              {description}
            </p>
          )}
          {children}
        </div>
        {/* Last in the page's order, so Tab reaches it after the form's fields and actions. */}
        <button type="button" className="u-dialog__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
    </div>,
    document.body,
  );
}
