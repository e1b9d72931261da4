import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Session } from '@uplift/platform';
import { renderWithProviders, signedInAs, signedOut, testQueryClient } from '@uplift/platform/testing';
import { RequireAuth, RequireUplifter } from './guards';

const signedIn = signedInAs('u1');

function renderGuarded(session: Session, guard: 'auth' | 'uplifter', isUplifter = false) {
  const queryClient = testQueryClient();
  queryClient.setQueryData(['users', 'u1'], { id: 'u1', isUplifter });
  const Guard = guard === 'auth' ? RequireAuth : RequireUplifter;
  renderWithProviders(
    <Guard redirectTo="/">
      <p>private</p>
    </Guard>,
    { path: '/private', route: '/private', routes: { '/': <p>home</p> }, session, queryClient },
  );
}

describe('route guards', () => {
  it('RequireAuth redirects signed-out users', () => {
    renderGuarded(signedOut, 'auth');
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
    renderGuarded(signedOut, 'uplifter', true);
    expect(screen.getByText('home')).toBeTruthy();
  });
});
