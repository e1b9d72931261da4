/** The fields React's use() reads on a promise it has seen settle. */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/**
 * Marks promise with its outcome as it settles, the way React's use() tracks
 * the promises it is given. Code fetched ahead (a remote's module, a lazy
 * part) then renders without suspending once it is there: React.lazy always
 * suspends on its first render, and React waits up to 300 ms before showing
 * what a suspended boundary has since received.
 */
export function preloaded<T>(promise: Promise<T>): Promise<T> {
  const tracked = promise as Tracked<T>;
  if (tracked.status) return tracked;
  tracked.status = 'pending';
  promise.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  return tracked;
}
