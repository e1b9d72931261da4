import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SessionProvider, type Session } from '@uplift/platform';
import { RequireAuth, RequireUplifter } from './guards';

const signedIn: Session = {
  status: 'signedIn',
  user: { uid: 'u1', email: 'jane@example.com', displayName: null, photoURL: null },
};

function renderGuarded(session: Session, guard: 'auth' | 'uplifter', isUplifter = false) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(['users', 'u1'], { id: 'u1', isUplifter });
  const Guard = guard === 'auth' ? RequireAuth : RequireUplifter;
  render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider session={session}>
        <MemoryRouter initialEntries={['/private']}>
          <Routes>
            <Route path="/" element={<p>home</p>} />
            <Route
              path="/private"
              element={
                <Guard redirectTo="/">
                  <p>private</p>
                </Guard>
              }
            />
          </Routes>
        </MemoryRouter>
      </SessionProvider>
    </QueryClientProvider>,
  );
}

describe('route guards', () => {
  it('RequireAuth redirects signed-out users', () => {
    renderGuarded({ status: 'signedOut', user: null }, 'auth');
    expect(screen.getByText('home')).toBeTruthy();
  });

  it('RequireAuth lets signed-in users through', () => {
    renderGuarded(signedIn, 'auth');
    expect(screen.getByText('private')).toBeTruthy();
  });

  it('RequireUplifter redirects users who are not uplifters', () => {
    renderGuarded(signedIn, 'uplifter', false);
    expect(screen.getByText('home')).toBeTruthy();
  });

  it('RequireUplifter lets uplifters through', () => {
    renderGuarded(signedIn, 'uplifter', true);
    expect(screen.getByText('private')).toBeTruthy();
  });

  it('RequireUplifter redirects signed-out users', () => {
    renderGuarded({ status: 'signedOut', user: null }, 'uplifter', true);
    expect(screen.getByText('home')).toBeTruthy();
  });
});
