import { useLayoutEffect, useRef, type TextareaHTMLAttributes } from 'react';
import { TEXT_AREA_MAX_HEIGHT_PX } from '../constants';

/** A text area that grows with its content up to the spec's maximum height, then scrolls. */
export function TextArea({ className, value, style, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, TEXT_AREA_MAX_HEIGHT_PX)}px`;
  }, [value]);
  return (
    <textarea
      ref={ref}
      className={['u-input', 'u-textarea', className].filter(Boolean).join(' ')}
      value={value}
      style={{ maxHeight: TEXT_AREA_MAX_HEIGHT_PX, ...style }}
      {...rest}
    />
  );
}
