import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { renderHookWithProviders, signedInAs } from '@uplift/platform/testing';
import { useCheckoutReturn } from './use-checkout-return';

const session = signedInAs('u1');

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

function renderAt(path: string) {
  return renderHookWithProviders(
    () => ({ ...useLocation(), confirmedTier: useCheckoutReturn().confirmedTier }),
    { path, session, queryClient: new QueryClient() },
  );
}

describe('useCheckoutReturn', () => {
  beforeEach(() => configureHttp({ baseUrl: 'http://gateway.test/' }));
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refetches the user until the paid tier arrives, then drops the marker', async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(json({ id: 'u1' }))
      .mockResolvedValue(json({ id: 'u1', billingInfo: { tier: 'pro' } }));
    vi.stubGlobal('fetch', fetchMock);

    const { result } = renderAt('/analytics?tab=2&checkout=success');
    expect(result.current.confirmedTier).toBeNull();
    await waitFor(() => expect(result.current.search).toBe('?tab=2'), { timeout: 5_000 });
    // The purchase is confirmed once the plan is there, and stays after the marker has gone.
    expect(result.current.confirmedTier).toBe('pro');
    expect(result.current.pathname).toBe('/analytics');
    expect(fetchMock.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('does not fetch anything on an ordinary page', () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    const { result } = renderAt('/');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(result.current.confirmedTier).toBeNull();
  });
});
