import { Suspense, use } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { preloaded } from './preloaded';

/** What preloaded() records on the promise, for React's use(). */
const fields = (promise: Promise<unknown>) => promise as Promise<unknown> & { status?: string; value?: unknown; reason?: unknown };

function Read({ promise }: { promise: Promise<string> }) {
  return <p>{use(promise)}</p>;
}

describe('preloaded', () => {
  it('lets use() read a settled promise without suspending', async () => {
    const promise = preloaded(Promise.resolve('ready'));
    await act(() => promise);
    render(
      <Suspense fallback={<p>waiting</p>}>
        <Read promise={promise} />
      </Suspense>,
    );
    // The first render shows the value: no fallback, no waiting for a retry.
    expect(screen.getByText('ready')).toBeTruthy();
    expect(screen.queryByText('waiting')).toBeNull();
  });

  it('is pending until the promise settles, then holds its value', async () => {
    let resolve!: (value: string) => void;
    const promise = preloaded(new Promise<string>((r) => (resolve = r)));
    expect(fields(promise).status).toBe('pending');
    resolve('later');
    await promise;
    expect(fields(promise).status).toBe('fulfilled');
    expect(fields(promise).value).toBe('later');
  });

  it('records a failure, so use() throws it to the error boundary', async () => {
    const failure = new Error('could not load');
    const promise = preloaded(Promise.reject(failure));
    await promise.catch(() => {});
    expect(fields(promise).status).toBe('rejected');
    expect(fields(promise).reason).toBe(failure);
    // Marking twice changes nothing.
    expect(preloaded(promise)).toBe(promise);
  });
});
