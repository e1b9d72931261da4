import type { ReactNode } from 'react';
import { isHttpError } from '../http/http-error';

export function ErrorCard({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section role="alert" className="u-error-card">
      <h2>{title}</h2>
      {children && <div>{children}</div>}
    </section>
  );
}

/**
 * Renders an HTTP error as its status and status text. Any other error is a
 * bug, not a response, so it is rethrown to the nearest error boundary.
 */
export function HttpErrorView({ error }: { error: unknown }) {
  if (!isHttpError(error)) throw error;
  return (
    <ErrorCard title={`${error.status} ${error.statusText}`}>
      {error.message !== error.statusText ? error.message : null}
    </ErrorCard>
  );
}
