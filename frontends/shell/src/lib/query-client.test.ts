import { afterEach, describe, expect, it } from 'vitest';
import { HttpError, toast } from '@uplift/platform';
import { createQueryClient } from './query-client';

describe('createQueryClient', () => {
  afterEach(() => toast.getSnapshot().forEach((item) => toast.dismiss(item.id)));

  const fail = (status: number) => () => Promise.reject(new HttpError(status, 'Status', { message: `failed ${status}` }));

  it('toasts soft (5xx) query errors', async () => {
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['a'], queryFn: fail(503), retry: false })).rejects.toThrow();
    expect(toast.getSnapshot().map((item) => item.message)).toEqual(['failed 503']);
  });

  it('leaves client errors to the caller', async () => {
    const client = createQueryClient();
    await expect(client.fetchQuery({ queryKey: ['b'], queryFn: fail(404) })).rejects.toThrow();
    expect(toast.getSnapshot()).toEqual([]);
  });

  it('stays quiet for queries marked toast: false', async () => {
    const client = createQueryClient();
    await expect(
      client.fetchQuery({ queryKey: ['c'], queryFn: fail(501), retry: false, meta: { toast: false } }),
    ).rejects.toThrow();
    expect(toast.getSnapshot()).toEqual([]);
  });
});
