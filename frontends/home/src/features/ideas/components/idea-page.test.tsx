import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider, configureHttp, queryDefaults } from '@uplift/platform';
import { IdeaPage } from './idea-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));

describe('IdeaPage', () => {
  it('shows every field of the idea', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const path = new URL(String(input)).pathname;
        if (path === '/internal/users/u1') return json({ categoryId: 'cat1' });
        if (path === '/internal/categories/cat1/business-data/ideas/idea1') {
          return json({
            id: 'idea1',
            title: 'Anvil Week',
            whyNow: 'Spring projects start in March.',
            channel: 'Email',
            subjectLine: 'Your spring anvil is here',
            body: 'Hi there,\nour anvils are 10% off.',
            products: ['Classic Anvil', 'Mini Anvil'],
            timing: 'Send Tuesday 9am',
            createTime: '2026-03-01T09:00:00Z',
          });
        }
        return json({}, 404);
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: queryDefaults })}>
        <SessionProvider session={{ status: 'signedIn', user: { uid: 'u1', email: null, displayName: null, photoURL: null } }}>
          <MemoryRouter initialEntries={['/ideas/idea1']}>
            <Routes>
              <Route path="ideas/:ideaId" element={<IdeaPage />} />
            </Routes>
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Anvil Week' })).toBeTruthy();
    for (const text of ['Spring projects start in March.', 'Email', 'Your spring anvil is here', 'Send Tuesday 9am', 'Classic Anvil', 'Mini Anvil']) {
      expect(screen.getByText(text)).toBeTruthy();
    }
    expect(screen.getByText(/our anvils are 10% off/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to Home' }).getAttribute('href')).toBe('/');
  });
});
