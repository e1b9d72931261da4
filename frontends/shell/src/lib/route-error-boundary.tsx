import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Button, ErrorCard, HttpErrorView } from '@uplift/platform';
import { ErrorBoundary } from './error-boundary';

/**
 * The route error boundary of spec section 8: a page that fails to render
 * with an HTTP error shows its status and status text; any other error is
 * rethrown (HttpErrorView throws it again) to the boundary above. Keyed by
 * the path, so moving to another page starts clean.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      key={pathname}
      fallback={(error) => (
        <main className="u-page">
          <HttpErrorView error={error} />
          <p>
            <Link to="/">Go to Home</Link>
          </p>
        </main>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}

/** The last boundary, around the shell's routes: a bug anywhere still leaves a way back. */
export function RootErrorBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary
      fallback={() => (
        <main className="u-page">
          <ErrorCard title="Something went wrong">
            <p>This page could not be shown. Reload to try again.</p>
            <Button onClick={() => window.location.reload()}>Reload</Button>
          </ErrorCard>
        </main>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
