import type { DefaultOptions, Query } from '@tanstack/react-query';
import { QUERY_ERROR_STALE_TIME_MS, QUERY_STALE_TIME_MS } from '../constants';
import { isHttpError } from '../http/http-error';

/** Fresh for 60 s; a cached error is stale after 1 s so the next mount retries. */
export function staleTimeFor(query: Pick<Query, 'state'>): number {
  return query.state.status === 'error' ? QUERY_ERROR_STALE_TIME_MS : QUERY_STALE_TIME_MS;
}

/** Retries only soft (5xx) failures, once: client errors will not heal by retrying. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return isHttpError(error) && error.soft && failureCount < 1;
}

/** The one set of react-query defaults; the shell builds the single QueryClient with it. */
export const queryDefaults: DefaultOptions = {
  queries: {
    staleTime: staleTimeFor,
    retry: shouldRetry,
    refetchOnWindowFocus: false,
  },
  mutations: {
    retry: false,
  },
};
