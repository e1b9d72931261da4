import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { json, renderWithProviders } from '@uplift/platform/testing';
import type { AuthActions } from '../lib/auth-actions';
import { SecondFactorRequired } from '../lib/totp';
import { fakeAuthActions, withAuthActions } from './auth-test-kit';
import { ResetPasswordDialog } from './reset-password-dialog';
import { RECOVERY_USED_MESSAGE, SignDialog, type SignDialogProps } from './sign-dialog';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  configureHttp({ baseUrl: 'http://gw.test/' });
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function renderSign(overrides: Partial<AuthActions> = {}, props: Partial<SignDialogProps> = {}) {
  const actions = fakeAuthActions(overrides);
  const onClose = vi.fn();
  const { user } = renderWithProviders(<SignDialog open onClose={onClose} {...props} />, { wrapper: withAuthActions(actions) });
  return { actions, onClose, user };
}

describe('SignDialog, account parts', () => {
  it("offers 'Forgot password?' only when signing in with a reset handler", async () => {
    const onForgotPassword = vi.fn();
    const { user } = renderSign({}, { onForgotPassword });
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(onForgotPassword).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'First time here?' }));
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
  });

  it("has no 'Forgot password?' without a reset handler", () => {
    renderSign();
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
  });

  it('takes custom titles and descriptions', () => {
    renderSign({}, { titles: { signIn: 'Welcome back' }, descriptions: { signIn: 'Sign in to see your report.' } });
    expect(screen.getByRole('dialog', { name: 'Welcome back' })).toBeTruthy();
    expect(screen.getByText('Sign in to see your report.')).toBeTruthy();
  });

  it('closes after a successful Google sign-in', async () => {
    const { actions, onClose, user } = renderSign();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(actions.signInWithGoogle).toHaveBeenCalled();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('asks for the time-based code when the account uses two-step sign-in', async () => {
    const complete = vi
      .fn<(code: string) => Promise<string>>()
      .mockRejectedValueOnce({ code: 'auth/invalid-verification-code' })
      .mockResolvedValueOnce('u1');
    const { onClose, user } = renderSign({ signIn: vi.fn().mockRejectedValue(new SecondFactorRequired(complete)) });
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const dialog = await screen.findByRole('dialog', { name: 'Two-step sign-in' });
    const verify = within(dialog).getByRole('button', { name: 'Verify' }) as HTMLButtonElement;
    expect(verify.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Verification code'), '000000');
    await user.click(verify);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('That code is not valid. Please try again.');
    await user.clear(within(dialog).getByLabelText('Verification code'));
    await user.type(within(dialog).getByLabelText('Verification code'), ' 123456 ');
    await user.click(verify);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(complete).toHaveBeenLastCalledWith('123456');
  });

  it('at the code prompt, a recovery code turns two-step off and the password signs in again', async () => {
    const rejected = 'That recovery code does not work for this email: it may be mistyped or already used.';
    fetchMock.mockResolvedValueOnce(json({ message: rejected, code: 3 }, 400)).mockResolvedValueOnce(json({}));
    const complete = vi.fn<(code: string) => Promise<string>>();
    const signIn = vi
      .fn<AuthActions['signIn']>()
      .mockRejectedValueOnce(new SecondFactorRequired(complete))
      .mockResolvedValueOnce('u1');
    const { onClose, user } = renderSign({ signIn });
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw-1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));

    const dialog = await screen.findByRole('dialog', { name: 'Use a recovery code' });
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('jane@example.com');
    const use = within(dialog).getByRole('button', { name: 'Use recovery code' }) as HTMLButtonElement;
    expect(use.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Recovery code'), 'abcd-efgh-jkmn-pqrs');
    await user.click(use);
    expect((await within(dialog).findByRole('alert')).textContent).toBe(rejected);
    await user.clear(within(dialog).getByLabelText('Recovery code'));
    await user.type(within(dialog).getByLabelText('Recovery code'), ' 0123-4567-89AB-CDEF ');
    await user.click(use);

    const off = await screen.findByRole('dialog', { name: 'Two-step sign-in is off' });
    expect(within(off).getByRole('status').textContent).toBe(RECOVERY_USED_MESSAGE);
    expect(String(fetchMock.mock.calls[1]![0])).toBe('http://gw.test/internal/users/useRecoveryCode');
    expect(fetchMock.mock.calls[1]![1]!.body).toBe('{"email":"jane@example.com","code":"0123-4567-89AB-CDEF"}');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(off).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(signIn).toHaveBeenCalledTimes(2);
    expect(signIn).toHaveBeenLastCalledWith('jane@example.com', 'pw-1');
    expect(complete).not.toHaveBeenCalled();
  });

  it('can go back from the recovery code to the authenticator code', async () => {
    const complete = vi.fn<(code: string) => Promise<string>>().mockResolvedValue('u1');
    const { onClose, user } = renderSign({ signIn: vi.fn().mockRejectedValue(new SecondFactorRequired(complete)) });
    await user.type(screen.getByLabelText('Email'), 'jane@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.click(await screen.findByRole('button', { name: 'Use a code from your authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Two-step sign-in' });
    await user.type(within(dialog).getByLabelText('Verification code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('ResetPasswordDialog', () => {
  function renderReset(onBackToSignIn?: () => void) {
    return renderWithProviders(<ResetPasswordDialog open onClose={vi.fn()} onBackToSignIn={onBackToSignIn} />).user;
  }

  it('explains itself, sends the reset email and shows the exact note', async () => {
    fetchMock.mockResolvedValueOnce(json({}));
    const user = renderReset();
    const dialog = screen.getByRole('dialog', { name: 'Reset password' });
    expect(within(dialog).getByText(/send you a link to reset your password/)).toBeTruthy();
    const submit = within(dialog).getByRole('button', { name: 'Reset password' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Email'), 'jane@example.com');
    await user.click(submit);
    expect((await within(dialog).findByRole('status')).textContent).toBe('An email as been sent to jane@example.com');
    expect(String(fetchMock.mock.calls[0]![0])).toBe('http://gw.test/internal/users/resetPassword');
    expect(fetchMock.mock.calls[0]![1]!.body).toBe('{"email":"jane@example.com"}');
    expect(screen.queryByRole('button', { name: 'Or go back to Sign in' })).toBeNull();
  });

  it("shows the server's message, or the fallback", async () => {
    fetchMock
      .mockResolvedValueOnce(json({ message: 'Please enter a valid email.' }, 400))
      .mockResolvedValueOnce(json({}, 500));
    const user = renderReset();
    await user.type(screen.getByLabelText('Email'), 'bad');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Please enter a valid email.');
    // The message belongs to the field it is about.
    expect(screen.getByLabelText('Email').getAttribute('aria-describedby')).toBe(alert.id);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('An unknown error occurred. Please try again.'),
    );
  });

  it("offers 'Or go back to Sign in' when asked to", async () => {
    const back = vi.fn();
    const user = renderReset(back);
    await user.click(screen.getByRole('button', { name: 'Or go back to Sign in' }));
    expect(back).toHaveBeenCalled();
  });
});
