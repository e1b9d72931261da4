import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../http/http-error';
import { queryDefaults, shouldRetry, staleTimeFor } from './query-defaults';

type QueryLike = Parameters<typeof staleTimeFor>[0];
const withStatus = (status: 'success' | 'error' | 'pending') => ({ state: { status } }) as QueryLike;

describe('query defaults', () => {
  it('keeps data fresh for 60000 ms', () => {
    expect(staleTimeFor(withStatus('success'))).toBe(60_000);
  });

  it('expires cached errors after 1000 ms', () => {
    expect(staleTimeFor(withStatus('error'))).toBe(1_000);
  });

  it('retries a soft error once and client errors never', () => {
    expect(shouldRetry(0, new HttpError(503, 'Service Unavailable'))).toBe(true);
    expect(shouldRetry(1, new HttpError(503, 'Service Unavailable'))).toBe(false);
    expect(shouldRetry(0, new HttpError(404, 'Not Found'))).toBe(false);
    expect(shouldRetry(0, new Error('bug'))).toBe(false);
  });

  it('makes a query client treat data as stale after 60 s and errors after 1 s', async () => {
    vi.useFakeTimers();
    const client = new QueryClient({ defaultOptions: queryDefaults });
    const observe = (key: string, queryFn: () => Promise<number>) =>
      new QueryObserver(client, { queryKey: [key], queryFn });

    const ok = observe('ok', async () => 1);
    const stopOk = ok.subscribe(() => {});
    await vi.waitFor(() => expect(ok.getCurrentResult().status).toBe('success'));
    vi.advanceTimersByTime(59_000);
    expect(ok.getCurrentResult().isStale).toBe(false);
    vi.advanceTimersByTime(1_001);
    expect(ok.getCurrentResult().isStale).toBe(true);
    stopOk();

    const failing = observe('failing', () => Promise.reject(new HttpError(404, 'Not Found')));
    const stopFailing = failing.subscribe(() => {});
    await vi.waitFor(() => expect(failing.getCurrentResult().status).toBe('error'));
    expect(failing.getCurrentResult().failureCount).toBe(1);
    stopFailing();
    vi.useRealTimers();
  });
});
