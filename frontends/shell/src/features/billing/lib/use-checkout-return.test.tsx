import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider, configureHttp, type Session } from '@uplift/platform';
import { useCheckoutReturn } from './use-checkout-return';

const session: Session = {
  status: 'signedIn',
  user: { uid: 'u1', email: 'jane@example.com', displayName: null, photoURL: null },
};

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

function renderAt(path: string) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={new QueryClient()}>
      <SessionProvider session={session}>
        <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
      </SessionProvider>
    </QueryClientProvider>
  );
  return renderHook(
    () => {
      useCheckoutReturn();
      return useLocation();
    },
    { wrapper },
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
    await waitFor(() => expect(result.current.search).toBe('?tab=2'), { timeout: 5_000 });
    expect(result.current.pathname).toBe('/analytics');
    expect(fetchMock.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('does not fetch anything on an ordinary page', () => {
    const fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
