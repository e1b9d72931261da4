import { useId, type ReactNode } from 'react';

export interface SwitchProps {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}

/** An on/off toggle: a native checkbox with role="switch", so it is keyboard- and screen-reader-friendly. */
export function Switch({ label, description, checked, onChange, disabled }: SwitchProps) {
  const id = useId();
  const descriptionId = useId();
  return (
    <div className="u-switch">
      <div className="u-switch__text">
        <label htmlFor={id} className="u-switch__label">
          {label}
        </label>
        {description && (
          <span id={descriptionId} className="u-switch__description">
            {description}
          </span>
        )}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="u-switch__input"
        checked={checked}
        disabled={disabled}
        aria-describedby={description ? descriptionId : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}
