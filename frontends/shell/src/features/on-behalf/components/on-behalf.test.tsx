import type { ReactNode } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser, configureHttp, type UserJson } from '@uplift/platform';
import { json, renderWithProviders, signedInAs } from '@uplift/platform/testing';
import { isActingOnBehalf } from '../lib/on-behalf';
import { OnBehalfBanner } from './on-behalf-banner';

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

function withProviders(node: ReactNode, user: UserJson) {
  // Fresh forever: the seeded user must not be refetched (that would use up the mocked responses).
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(['users', 'me'], user);
  return renderWithProviders(node, { session: signedInAs('me', 'up@example.com'), queryClient: client }).user;
}

describe('on-behalf mode', () => {
  it('is on only while the category differs from the original', () => {
    expect(isActingOnBehalf({ categoryId: 'c2', originalCategoryId: 'c1' })).toBe(true);
    expect(isActingOnBehalf({ categoryId: 'c1', originalCategoryId: 'c1' })).toBe(false);
    expect(isActingOnBehalf({ categoryId: 'c1' })).toBe(false);
    expect(isActingOnBehalf(undefined)).toBe(false);
  });

  it('hides the banner for a user on their own category', () => {
    withProviders(<OnBehalfBanner userId="me" />, { id: 'me', categoryId: 'c1', originalCategoryId: 'c1' });
    expect(screen.queryByText('You are navigating the site on behalf an other user')).toBeNull();
  });

  it("shows the banner; 'exit' switches back to the original category and reloads /dashboard", async () => {
    fetchMock.mockResolvedValueOnce(json({ categoryId: 'c1', originalCategoryId: 'c1' }));
    const user = withProviders(<OnBehalfBanner userId="me" />, { id: 'me', categoryId: 'c2', originalCategoryId: 'c1' });
    const banner = screen.getByRole('region', { name: 'On behalf of another user' });
    expect(within(banner).getByText('You are navigating the site on behalf an other user')).toBeTruthy();
    await user.click(within(banner).getByRole('button', { name: 'exit' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/dashboard'));
    expect(requests()).toEqual(['POST internal/users/me/switchMetricsCategory {"categoryId":"c1"}']);
  });
});
