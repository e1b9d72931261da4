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
const FIRST_FOCUS = 'input, select, textarea, button:not(.u-dialog__close)';

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
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>(FIRST_FOCUS)?.focus();
  }, [open, page]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
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
        <button type="button" className="u-dialog__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
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
    </div>,
    document.body,
  );
}
