import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser, configureHttp, getAuditLogQueryOptions, getContentGenerationParamsQueryOptions, getUserQueryOptions } from '@uplift/platform';
import { json, renderWithProviders, signedInAs } from '@uplift/platform/testing';
import { DashboardPage } from './dashboard-page';

const fetchMock = vi.fn<typeof fetch>();
const requests = () =>
  fetchMock.mock.calls.map(([url, init]) => `${init?.method} ${String(url).replace('http://gw.test/', '')} ${init?.body ?? ''}`.trim());

let assign: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  configureHttp({ baseUrl: 'http://gw.test/' });
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function renderDashboard() {
  // Fresh forever: nothing seeded may be refetched (that would use up the mocked responses).
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  // The dashboard's own actions list (the audit log) has its own tests.
  client.setQueryData(getAuditLogQueryOptions('me', 'actor').queryKey, { entries: [] });
  // …and its times are on the uplifter's own store clock (their profile).
  client.setQueryData(getUserQueryOptions('me').queryKey, { id: 'me', email: 'up@example.com', categoryId: 'c-me' } as never);
  client.setQueryData(getContentGenerationParamsQueryOptions('c-me').queryKey, { timeZone: 'Europe/London' } as never);
  return renderWithProviders(<DashboardPage />, { session: signedInAs('me', 'up@example.com'), queryClient: client }).user;
}

describe('DashboardPage', () => {
  it("searches store owners, loads more and 'View as' switches, then goes to /", async () => {
    fetchMock
      .mockResolvedValueOnce(json({ users: [{ id: 'o1', email: 'one@shop.test', categoryId: 'c-one' }], nextPageToken: 'p2' }))
      .mockResolvedValueOnce(json({ users: [{ id: 'o2', email: 'two@shop.test', displayName: 'Two', categoryId: 'c-two' }] }))
      .mockResolvedValueOnce(json({ users: [{ id: 'o3', email: 'three@shop.test', categoryId: 'c-three' }] }))
      .mockResolvedValueOnce(json({ categoryId: 'c-three', originalCategoryId: 'c-me' }));
    const user = renderDashboard();
    expect(await screen.findByText('one@shop.test')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Two')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    await user.type(screen.getByRole('searchbox', { name: 'Search store owners' }), 'three');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.click(await screen.findByRole('button', { name: 'View as three@shop.test' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(requests()).toEqual([
      'GET internal/metricsUsers?pageSize=20',
      'GET internal/metricsUsers?pageSize=20&pageToken=p2',
      'GET internal/metricsUsers?query=three&pageSize=20',
      'POST internal/users/me/switchMetricsCategory {"categoryId":"c-three"}',
    ]);
  });

  it('shows a failed switch and stays', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ users: [{ id: 'o1', email: 'one@shop.test', categoryId: 'c-one' }] }))
      .mockResolvedValueOnce(json({ message: 'You may not act for this user.' }, 403));
    const user = renderDashboard();
    await user.click(await screen.findByRole('button', { name: 'View as one@shop.test' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(assign).not.toHaveBeenCalled();
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'View as one@shop.test' }) as HTMLButtonElement).disabled).toBe(false),
    );
  });
});
