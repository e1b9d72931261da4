import type { ReactNode } from 'react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore, useSession } from '@uplift/platform';
import { json, renderWithProviders } from '@uplift/platform/testing';

const fb = vi.hoisted(() => ({
  stateListener: null as null | ((user: unknown) => Promise<void> | void),
  verifyPasswordResetCode: vi.fn(),
  confirmPasswordReset: vi.fn(),
  signInWithEmailAndPassword: vi.fn(),
}));
vi.mock('firebase/auth', () => ({
  GoogleAuthProvider: class {},
  TotpMultiFactorGenerator: { FACTOR_ID: 'totp' },
  onAuthStateChanged: (_auth: unknown, listener: (user: unknown) => void) => {
    fb.stateListener = listener;
    return () => {};
  },
  onIdTokenChanged: () => () => {},
  verifyPasswordResetCode: fb.verifyPasswordResetCode,
  confirmPasswordReset: fb.confirmPasswordReset,
  signInWithEmailAndPassword: fb.signInWithEmailAndPassword,
  signOut: vi.fn(),
  getMultiFactorResolver: vi.fn(),
  multiFactor: vi.fn(),
}));

const { AuthProvider } = await import('./auth-provider');
const { ResetPasswordPage } = await import('./reset-password-page');

const fetchMock = vi.fn<typeof fetch>();

function Status() {
  const session = useSession();
  return <p>status: {session.status}</p>;
}

/** Under the real AuthProvider, whose session replaces the test's. */
function renderProvider(children: ReactNode, path = '/', tokenSyncUrl?: string) {
  renderWithProviders(children, {
    path,
    route: path.split('?')[0],
    routes: { '/': <p>home page</p> },
    wrapper: ({ children: app }: { children: ReactNode }) => (
      <AuthProvider auth={{} as never} tokenSyncUrl={tokenSyncUrl}>
        {app}
      </AuthProvider>
    ),
  });
}

beforeEach(() => {
  fb.verifyPasswordResetCode.mockReset();
  fb.confirmPasswordReset.mockReset();
  fb.signInWithEmailAndPassword.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  // The provider reads the signed-in user (its stored roles); the sync answers 204.
  fetchMock.mockImplementation(async (input) =>
    String(input).includes('/users/') ? json({ isUplifter: false }) : new Response(null, { status: 204 }),
  );
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  tokenStore.set(null);
});

describe('auth state', () => {
  it('stores the kept token on sign-in without a round trip to Firebase and syncs it while fresh', async () => {
    renderProvider(<Status />, '/status', 'https://sync.test/session');
    const getIdTokenResult = vi.fn(async () => ({ token: 'fresh', issuedAtTime: new Date().toUTCString(), claims: {} }));
    await act(async () => fb.stateListener!({ uid: 'u1', email: 'a@b.co', emailVerified: false, getIdTokenResult }));
    expect(getIdTokenResult).toHaveBeenCalledTimes(1);
    expect(getIdTokenResult).not.toHaveBeenCalledWith(true);
    expect(tokenStore.get()).toBe('fresh');
    expect(screen.getByText('status: signedIn')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('https://sync.test/session', {
      method: 'POST',
      headers: { Authorization: 'Bearer fresh' },
      credentials: 'include',
    });
  });

  it('forces a refresh when the email was verified after the kept token was issued', async () => {
    renderProvider(<Status />, '/status');
    const getIdTokenResult = vi.fn(async (force?: boolean) => ({
      token: force ? 'fresh' : 'kept',
      issuedAtTime: new Date().toUTCString(),
      claims: { email_verified: Boolean(force) },
    }));
    await act(async () => fb.stateListener!({ uid: 'u1', email: 'a@b.co', emailVerified: true, getIdTokenResult }));
    expect(getIdTokenResult).toHaveBeenCalledWith(true);
    expect(tokenStore.get()).toBe('fresh');
  });

  it('forces one refresh when the stored uplifter flag and the token disagree, then reloads the data', async () => {
    fetchMock.mockImplementation(async () => json({ isUplifter: true }));
    renderProvider(<Status />, '/status');
    const getIdTokenResult = vi.fn(async () => ({ token: 'kept', issuedAtTime: new Date().toUTCString(), claims: {} }));
    const getIdToken = vi.fn(async () => 'with-role');
    await act(async () =>
      fb.stateListener!({ uid: 'u1', email: 'a@b.co', emailVerified: false, getIdTokenResult, getIdToken }),
    );
    await waitFor(() => expect(getIdToken).toHaveBeenCalledWith(true));
    // The user is asked for again under the new token, and the claim still missing does not loop.
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(getIdToken).toHaveBeenCalledTimes(1);
  });

  it('clears the token and the refresh-token cookie on sign-out and DELETEs the sync', async () => {
    tokenStore.set('old');
    renderProvider(<Status />, '/status', 'https://sync.test/session');
    await act(async () => fb.stateListener!(null));
    expect(tokenStore.get()).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith(
      expect.stringMatching(/\/session\/refreshToken$/),
      expect.objectContaining({ method: 'DELETE', credentials: 'include' }),
    );
    expect(screen.getByText('status: signedOut')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('https://sync.test/session', { method: 'DELETE', credentials: 'include' });
  });

  it('does not sync without a sync URL', async () => {
    renderProvider(<Status />, '/status');
    await act(async () => fb.stateListener!(null));
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('sync'))).toEqual([]);
  });
});

describe('ResetPasswordPage', () => {
  it('checks the code, sets the new password, signs in and goes home', async () => {
    fb.verifyPasswordResetCode.mockResolvedValueOnce('jane@example.com');
    fb.confirmPasswordReset.mockResolvedValueOnce(undefined);
    const user = { uid: 'u1', getIdToken: async () => 't' };
    fb.signInWithEmailAndPassword.mockResolvedValueOnce({ user });
    fetchMock.mockImplementation(
      async () => new Response('{"categoryId":"c1"}', { headers: { 'content-type': 'application/json' } }),
    );
    renderProvider(<ResetPasswordPage />, '/reset-password?mode=resetPassword&oobCode=code-1&apiKey=k');
    expect(await screen.findByText('Choose a new password for jane@example.com.')).toBeTruthy();
    expect(fb.verifyPasswordResetCode).toHaveBeenCalledWith({}, 'code-1');
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('New password'), 'new-secret-1');
    await ui.click(screen.getByRole('button', { name: 'Save new password' }));
    await waitFor(() => expect(screen.getByText('home page')).toBeTruthy());
    expect(fb.confirmPasswordReset).toHaveBeenCalledWith({}, 'code-1', 'new-secret-1');
    expect(fb.signInWithEmailAndPassword).toHaveBeenCalledWith({}, 'jane@example.com', 'new-secret-1');
  });

  it('says when the link is invalid or used', async () => {
    fb.verifyPasswordResetCode.mockRejectedValueOnce({ code: 'auth/invalid-action-code' });
    renderProvider(<ResetPasswordPage />, '/reset-password?mode=resetPassword&oobCode=used');
    expect((await screen.findByRole('alert')).textContent).toMatch(/expired or has already been used/);
  });

  it('says so without a code', async () => {
    renderProvider(<ResetPasswordPage />, '/reset-password');
    expect((await screen.findByRole('alert')).textContent).toMatch(/expired or has already been used/);
    expect(fb.verifyPasswordResetCode).not.toHaveBeenCalled();
  });

  it('shows a weak-password failure and keeps the form', async () => {
    fb.verifyPasswordResetCode.mockResolvedValueOnce('jane@example.com');
    fb.confirmPasswordReset.mockRejectedValueOnce({ code: 'auth/weak-password' });
    renderProvider(<ResetPasswordPage />, '/reset-password?mode=resetPassword&oobCode=c');
    const ui = userEvent.setup();
    await ui.type(await screen.findByLabelText('New password'), '1');
    await ui.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/stronger password/);
    expect((screen.getByRole('button', { name: 'Save new password' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
