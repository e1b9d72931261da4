import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { afterSignUp, ensureProfile } from './auth-actions';
import { json } from '@uplift/platform/testing';

const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method} ${String(url).replace('http://gw.test/', '')}`);

describe('ensureProfile', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    configureHttp({ baseUrl: 'http://gw.test/' });
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('does nothing more when the profile has a category', async () => {
    fetchMock.mockResolvedValueOnce(json({ categoryId: 'c1', originalCategoryId: 'c1' }));
    await ensureProfile('u1');
    expect(calls()).toEqual(['GET internal/users/u1/profile']);
  });

  it('creates an onboarding record when the profile is empty, then fetches it again', async () => {
    fetchMock
      .mockResolvedValueOnce(json({}))
      .mockResolvedValueOnce(json({ categoryId: 'c1' }))
      .mockResolvedValueOnce(json({ categoryId: 'c1' }));
    await ensureProfile('u1');
    expect(calls()).toEqual([
      'GET internal/users/u1/profile',
      'POST internal/users/u1/onboarding',
      'GET internal/users/u1/profile',
    ]);
  });

  it('creates an onboarding record when the profile fetch fails', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ message: 'not found', code: 5 }, 404))
      .mockResolvedValueOnce(json({ categoryId: 'c1' }))
      .mockResolvedValueOnce(json({ categoryId: 'c1' }));
    await ensureProfile('u1');
    expect(calls()).toHaveLength(3);
    expect(calls()[1]).toBe('POST internal/users/u1/onboarding');
  });
});

describe('afterSignUp', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    configureHttp({ baseUrl: 'http://gw.test/' });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('creates the category with the stored Shopify id, clears it and loads the metrics category', async () => {
    localStorage.setItem('shopify-categoryId', 'shop-42');
    fetchMock.mockResolvedValueOnce(json({ category: {} })).mockResolvedValueOnce(json({ categoryId: 'c1' }));
    const queryClient = new QueryClient();
    await afterSignUp('u1', queryClient);
    expect(calls()).toEqual(['POST internal/categories', 'GET internal/users/u1/metricsCategory']);
    // The browser's time zone goes with it, so the emails follow the owner's clock.
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({ shopifyCategoryId: 'shop-42', timeZone });
    expect(localStorage.getItem('shopify-categoryId')).toBeNull();
    expect(queryClient.getQueryData(['users', 'u1', 'metricsCategory'])).toEqual({ categoryId: 'c1' });
  });

  it('is best-effort: failures (e.g. 501 Not Implemented) are only logged', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ message: 'not implemented', code: 12 }, 501))
      .mockResolvedValueOnce(json({ message: 'not implemented', code: 12 }, 501));
    await expect(afterSignUp('u1', new QueryClient({ defaultOptions: { queries: { retry: false } } }))).resolves.toBeUndefined();
    expect(console.warn).toHaveBeenCalledTimes(2);
  });
});
