import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders, type Rendered } from '@uplift/platform/testing';
import type { AuthActions } from '../lib/auth-actions';
import { fakeAuthActions, withAuthActions } from './auth-test-kit';
import { SignDialog } from './sign-dialog';

function setup(overrides: Partial<AuthActions> = {}) {
  const actions = fakeAuthActions(overrides);
  const onClose = vi.fn();
  const { user } = renderWithProviders(<SignDialog open onClose={onClose} />, { wrapper: withAuthActions(actions) });
  return { actions, onClose, user };
}

async function fill(user: Rendered['user']) {
  await user.type(screen.getByLabelText('Email'), 'jane@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret123');
}

describe('SignDialog', () => {
  it('signs in and closes', async () => {
    const { actions, onClose, user } = setup();
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByText('Please sign in below to continue.')).toBeTruthy();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(actions.signIn).toHaveBeenCalledWith('jane@example.com', 'secret123');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('disables the submit button while submitting', async () => {
    let finish: (id: string) => void = () => {};
    const { user } = setup({ signIn: () => new Promise<string>((resolve) => (finish = resolve)) });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const submit = screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    finish('u1');
    await waitFor(() => expect(submit.disabled).toBe(false));
  });

  it('shows the failure in a red banner, with the fallback for empty errors', async () => {
    const signIn = vi
      .fn<AuthActions['signIn']>()
      .mockRejectedValueOnce({ message: 'Invalid email or password.' })
      .mockRejectedValueOnce({});
    const { user, onClose } = setup({ signIn });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password.');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('An unknown error occurred. Please try again.'),
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('toggles to sign up, clearing the error, and signs up', async () => {
    const { actions, user } = setup({ signIn: vi.fn().mockRejectedValue({}) });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('alert');

    await user.click(screen.getByRole('button', { name: 'First time here?' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Sign up' })).toBeTruthy();
    expect(screen.getByText('Please sign up below to continue.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(actions.signUp).toHaveBeenCalledWith('jane@example.com', 'secret123');

    await user.click(screen.getByRole('button', { name: 'Already have an account?' }));
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBeTruthy();
  });

  it('says to check the inbox when the sign-up made no account, then offers sign-in', async () => {
    const { onClose, user } = setup({ signUp: vi.fn(async () => null) });
    await user.click(screen.getByRole('button', { name: 'First time here?' }));
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('dialog', { name: 'Check your email' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe("We've sent an email to jane@example.com with what to do next.");
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('jane@example.com');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
  });

  it('alerts when Google sign-in fails', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = setup({ signInWithGoogle: vi.fn().mockRejectedValue(new Error('popup closed')) });
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Something went wrong, please try again.'));
  });
});
