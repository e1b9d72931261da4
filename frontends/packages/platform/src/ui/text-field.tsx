import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'children'> {
  label: ReactNode;
  /** Why the value was refused: shown under the input, which it describes and marks invalid. */
  error?: string | null | false;
  /**
   * The id of an error shown outside the field, for one message about several
   * fields (a date range's two ends): the field is invalid and described by it.
   */
  sharedErrorId?: string;
  /** A line of help under the input, which it also describes. */
  hint?: ReactNode;
  /** A control beside the input (a one-field form's button); the hint and the error go under both. */
  action?: ReactNode;
}

/**
 * Not in the package's index but its own entry (`@uplift/platform/text-field`):
 * only forms in lazily loaded dialogs and pages use it, and the index is in
 * every first load (a shared singleton). It holds no state, so a copy per app
 * is harmless.
 *
 * A labelled input: the label names it, the hint and the error describe it
 * (aria-describedby), and a required field shows a star. The star sits
 * outside the label and is hidden from assistive technology, so the field's
 * name stays its label; `required` says it to them instead.
 */
export function TextField({ label, error, sharedErrorId, hint, action, id, className, required, ...input }: TextFieldProps) {
  const ownId = useId();
  const inputId = id ?? ownId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : sharedErrorId;
  const control = (
    <input
      id={inputId}
      className={className ? `u-input ${className}` : 'u-input'}
      required={required}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
      {...input}
    />
  );
  return (
    <div className="u-field">
      <span>
        <label htmlFor={inputId}>{label}</label>
        {required && (
          <span className="u-field__required" aria-hidden="true">
            {' *'}
          </span>
        )}
      </span>
      {action ? (
        <div className="u-field__row">
          {control}
          {action}
        </div>
      ) : (
        control
      )}
      {hint && (
        <span id={hintId} className="u-field__note">
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} role="alert" className="u-field__note u-field__error">
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * The 6-digit code from the owner's authenticator app, wherever two-step
 * sign-in asks for one: a numeric keypad and the browser's one-time-code
 * autofill.
 */
export function VerificationCodeField(props: Omit<TextFieldProps, 'label' | 'required' | 'inputMode' | 'autoComplete'>) {
  return <TextField label="Verification code" required inputMode="numeric" autoComplete="one-time-code" {...props} />;
}
