import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isHttpError, queryDefaults, toast } from '@uplift/platform';

/**
 * Server-side failures reach the user as a toast; client errors are handled
 * where they happen. Best-effort calls opt out with `meta: { toast: false }`.
 */
function toastSoftError(error: unknown, meta: Record<string, unknown> | undefined): void {
  if (meta?.toast === false) return;
  if (isHttpError(error) && error.soft) toast.error(error.message || 'Something went wrong.');
}

/** The single QueryClient of the page; remotes share it through the react-query singleton. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: queryDefaults,
    queryCache: new QueryCache({ onError: (error, query) => toastSoftError(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => toastSoftError(error, mutation.meta),
    }),
  });
}
