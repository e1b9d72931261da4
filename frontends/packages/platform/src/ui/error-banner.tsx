import type { CSSProperties } from 'react';

/** The red banner that shows a failure next to what failed; nothing when there is none. */
export function ErrorBanner({ message, style }: { message: string | null | undefined | false; style?: CSSProperties }) {
  if (!message) return null;
  return (
    <div role="alert" className="u-alert" style={style}>
      {message}
    </div>
  );
}
