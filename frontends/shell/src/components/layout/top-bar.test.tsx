import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Session } from '@uplift/platform';
import { renderWithProviders, signedInAs, signedOut, testQueryClient } from '@uplift/platform/testing';
import { AuthControls } from '../../features/auth';
import { fakeAuthActions, withAuthActions } from '../../features/auth/components/auth-test-kit';
import { TopBar } from './top-bar';

const actions = fakeAuthActions();

function renderAt(
  path: string,
  session: Session,
  onOpenAccountSettings = vi.fn(),
  onOpenUpgradePlan = vi.fn(),
  onOpenBusinessProfile = vi.fn(),
) {
  const queryClient = testQueryClient();
  if (session.user) {
    queryClient.setQueryData(['users', session.user.uid], { id: session.user.uid, displayName: 'jane', email: session.user.email });
  }
  renderWithProviders(
    <TopBar
      marketingUrl="https://marketing.test/"
      actions={
        <AuthControls
          onOpenAccountSettings={onOpenAccountSettings}
          onOpenUpgradePlan={onOpenUpgradePlan}
          onOpenBusinessProfile={onOpenBusinessProfile}
        />
      }
    />,
    {
      path,
      session,
      queryClient,
      routes: { '/logout': <p>logging out</p>, '/studio': <p>the studio</p> },
      wrapper: withAuthActions(actions),
    },
  );
  return { onOpenAccountSettings, onOpenUpgradePlan, onOpenBusinessProfile };
}

const signedIn = signedInAs('u1');

describe('TopBar', () => {
  it('links the logo to the marketing site and highlights the active section', () => {
    renderAt('/analytics', signedOut);
    expect(screen.getByRole('link', { name: 'Uplift' }).getAttribute('href')).toBe('https://marketing.test/');
    const main = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(main).getByRole('link', { name: 'Analytics' }).getAttribute('aria-current')).toBe('page');
    expect(within(main).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
    const bottom = screen.getByRole('navigation', { name: 'Bottom navigation' });
    expect(within(bottom).getByRole('link', { name: 'Connections' }).getAttribute('href')).toBe('/connections');
  });

  it('labels the phone bar icons with words, not only for screen readers', () => {
    renderAt('/', signedOut);
    const bottom = screen.getByRole('navigation', { name: 'Bottom navigation' });
    expect(within(bottom).getAllByRole('link').map((link) => link.textContent)).toEqual(['Home', 'Analytics', 'Connections']);
  });

  it("offers 'Sign in' when signed out, opening the sign dialog", async () => {
    renderAt('/', signedOut);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // The dialog's code is fetched on first open.
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeTruthy();
  });

  it('shows an avatar menu with the email when signed in; Sign Out goes to /logout', async () => {
    const { onOpenAccountSettings } = renderAt('/', signedIn);
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    const trigger = screen.getByRole('button', { name: 'Open account menu' });
    expect(within(trigger).getByText('J')).toBeTruthy();

    await userEvent.click(trigger);
    const menu = screen.getByRole('menu');
    expect(within(menu).getByText('jane@example.com')).toBeTruthy();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Account Settings' }));
    expect(onOpenAccountSettings).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();

    await userEvent.click(trigger);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
    expect(screen.getByText('logging out')).toBeTruthy();
  });

  it("offers 'Upgrade plan' in the avatar menu", async () => {
    const { onOpenUpgradePlan } = renderAt('/', signedIn);
    await userEvent.click(screen.getByRole('button', { name: 'Open account menu' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Upgrade plan' }));
    expect(onOpenUpgradePlan).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it("offers the 'Studio' in the avatar menu, opening /studio", async () => {
    renderAt('/', signedIn);
    await userEvent.click(screen.getByRole('button', { name: 'Open account menu' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Studio' }));
    expect(screen.getByText('the studio')).toBeTruthy();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it("offers 'Business profile' in the avatar menu", async () => {
    const { onOpenBusinessProfile } = renderAt('/', signedIn);
    await userEvent.click(screen.getByRole('button', { name: 'Open account menu' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Business profile' }));
    expect(onOpenBusinessProfile).toHaveBeenCalledTimes(1);
  });

  it('opens the Sign up dialog when the address says requireSignup=true and nobody is signed in', async () => {
    renderAt('/?requireSignup=true', signedOut);
    expect(await screen.findByRole('dialog', { name: 'Sign up' })).toBeTruthy();
    expect(screen.getByText('Please sign up below to continue.')).toBeTruthy();
  });

  it('does not open Sign up for requireSignup=true when already signed in', () => {
    renderAt('/?requireSignup=true', signedIn);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes the menu on Escape', async () => {
    renderAt('/', signedIn);
    await userEvent.click(screen.getByRole('button', { name: 'Open account menu' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
