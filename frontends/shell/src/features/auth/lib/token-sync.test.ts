import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { syncToken, tokenAgeSeconds } from './token-sync';

const fetchMock = vi.fn<typeof fetch>();
const NOW = Date.parse('2026-01-01T12:00:00Z');
const issued = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000).toUTCString();

describe('syncToken', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('does nothing without a sync URL', async () => {
    await syncToken(undefined, { value: 't', issuedAtTime: issued(0) }, NOW);
    await syncToken(undefined, null, NOW);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('POSTs a token at most 300 s old with the bearer header', async () => {
    await syncToken('https://sync.test/s', { value: 'tok', issuedAtTime: issued(300) }, NOW);
    expect(fetchMock).toHaveBeenCalledWith('https://sync.test/s', {
      method: 'POST',
      headers: { Authorization: 'Bearer tok' },
      credentials: 'include',
    });
  });

  it('does not send an older token', async () => {
    await syncToken('https://sync.test/s', { value: 'tok', issuedAtTime: issued(301) }, NOW);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('DELETEs when signed out', async () => {
    await syncToken('https://sync.test/s', null, NOW);
    expect(fetchMock).toHaveBeenCalledWith('https://sync.test/s', { method: 'DELETE', credentials: 'include' });
  });

  it('is best-effort', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    await expect(syncToken('https://sync.test/s', null, NOW)).resolves.toBeUndefined();
    expect(console.warn).toHaveBeenCalled();
  });

  it('measures the age in seconds', () => {
    expect(tokenAgeSeconds(issued(42), NOW)).toBe(42);
  });
});
