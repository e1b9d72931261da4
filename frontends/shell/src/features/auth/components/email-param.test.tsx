import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@uplift/platform/testing';
import { fakeAuthActions, withAuthActions } from './auth-test-kit';
import { AuthControls } from './auth-controls';

const actions = fakeAuthActions();

function renderAt(path: string) {
  return renderWithProviders(
    <AuthControls onOpenAccountSettings={vi.fn()} onOpenUpgradePlan={vi.fn()} onOpenBusinessProfile={vi.fn()} />,
    { path, wrapper: withAuthActions(actions) },
  ).user;
}

describe('?email=', () => {
  it('prefills the email of Sign in, Sign up and Reset password', async () => {
    const user = renderAt('/?email=jane%40example.com');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    // Each dialog's code is fetched on first open.
    expect(((await screen.findByLabelText('Email')) as HTMLInputElement).value).toBe('jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    const reset = await screen.findByRole('dialog', { name: 'Reset password' });
    expect((within(reset).getByLabelText('Email') as HTMLInputElement).value).toBe('jane@example.com');
  });

  it('prefills Sign up when the visitor is sent to sign up', async () => {
    renderAt('/?requireSignup=true&email=sam%40example.com');
    expect(await screen.findByRole('dialog', { name: 'Sign up' })).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('sam@example.com');
  });

  it('leaves the field empty without the parameter', async () => {
    const user = renderAt('/');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(((await screen.findByLabelText('Email')) as HTMLInputElement).value).toBe('');
  });
});
