import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp, tokenStore } from '@uplift/platform';
import { json } from '@uplift/platform/testing';

// Firebase is mocked: these tests pin what the app does around its calls.
const fb = vi.hoisted(() => ({
  signInWithPopup: vi.fn(),
  signInWithEmailAndPassword: vi.fn(),
  signOut: vi.fn(async () => {}),
  getAdditionalUserInfo: vi.fn(),
  getMultiFactorResolver: vi.fn(),
  multiFactor: vi.fn(),
  assertionForSignIn: vi.fn((uid: string, code: string) => ({ uid, code })),
  assertionForEnrollment: vi.fn((secret: unknown, code: string) => ({ secret, code })),
  generateSecret: vi.fn(),
  reauthenticateWithCredential: vi.fn(),
}));
vi.mock('firebase/auth', () => ({
  GoogleAuthProvider: class {
    static PROVIDER_ID = 'google.com';
  },
  TotpMultiFactorGenerator: {
    FACTOR_ID: 'totp',
    assertionForSignIn: fb.assertionForSignIn,
    assertionForEnrollment: fb.assertionForEnrollment,
    generateSecret: fb.generateSecret,
  },
  signInWithPopup: fb.signInWithPopup,
  signInWithEmailAndPassword: fb.signInWithEmailAndPassword,
  signInWithCustomToken: vi.fn(),
  signOut: fb.signOut,
  getAdditionalUserInfo: fb.getAdditionalUserInfo,
  getMultiFactorResolver: fb.getMultiFactorResolver,
  multiFactor: fb.multiFactor,
  reauthenticateWithCredential: fb.reauthenticateWithCredential,
  EmailAuthProvider: { credential: (email: string, password: string) => ({ email, password }) },
}));

const { createAuthActions } = await import('./auth-actions');
const { createAccountSecurity, isSecondFactorRequired, TOTP_CODE_INVALID_MESSAGE, TOTP_NOT_AVAILABLE_MESSAGE, TOTP_PASSWORD_INVALID_MESSAGE, totpErrorMessage } =
  await import('./totp');

const fetchMock = vi.fn<typeof fetch>();
const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => `${init?.method} ${String(url).replace('http://gw.test/', '')}`);

const auth = { currentUser: null } as never;
const googleUser = {
  uid: 'u1',
  email: 'jane@example.com',
  displayName: 'Jane Doe',
  providerData: [{ providerId: 'google.com', uid: 'google-123' }],
  getIdToken: vi.fn(async () => 'id-token'),
};

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  configureHttp({ baseUrl: 'http://gw.test/' });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  tokenStore.set(null);
});

describe('signUp', () => {
  it('resolves to null, signing nobody in, when the server made no account (the email has one)', async () => {
    const { signInWithCustomToken } = await import('firebase/auth');
    fetchMock.mockResolvedValueOnce(json({ id: '', signInToken: '' }));
    await expect(createAuthActions(auth, new QueryClient()).signUp('taken@example.com', 'secret123')).resolves.toBeNull();
    expect(calls()).toEqual(['POST internal/users']);
    expect(signInWithCustomToken).not.toHaveBeenCalled();
    expect(tokenStore.get()).toBeNull();
  });
});

describe('signInWithGoogle', () => {
  it('finishes Google auth for a new user with the welcome email, then ensures the profile', async () => {
    fb.signInWithPopup.mockResolvedValueOnce({ user: googleUser });
    fb.getAdditionalUserInfo.mockReturnValueOnce({ isNewUser: true });
    fetchMock
      .mockResolvedValueOnce(json({ id: 'u1' }))
      .mockResolvedValueOnce(json({ categoryId: 'c1', originalCategoryId: 'c1' }));
    await createAuthActions(auth, new QueryClient()).signInWithGoogle();
    expect(calls()).toEqual(['POST internal/users/finishGoogleAuth', 'GET internal/users/u1/profile']);
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toEqual({
      name: 'Jane Doe',
      email: 'jane@example.com',
      idFromGoogleAuth: 'google-123',
      suppressWelcomeEmail: false,
    });
    expect((fetchMock.mock.calls[0]![1]!.headers as Record<string, string>).Authorization).toBe('Bearer id-token');
  });

  it('suppresses the welcome email for a returning user', async () => {
    fb.signInWithPopup.mockResolvedValueOnce({ user: { ...googleUser, displayName: null } });
    fb.getAdditionalUserInfo.mockReturnValueOnce({ isNewUser: false });
    fetchMock.mockResolvedValueOnce(json({ id: 'u1' })).mockResolvedValueOnce(json({ categoryId: 'c1' }));
    await createAuthActions(auth, new QueryClient()).signInWithGoogle();
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]!.body))).toMatchObject({
      name: 'jane',
      suppressWelcomeEmail: true,
    });
  });

  it('signs out again and rejects when the server step fails', async () => {
    fb.signInWithPopup.mockResolvedValueOnce({ user: googleUser });
    fb.getAdditionalUserInfo.mockReturnValueOnce({ isNewUser: true });
    fetchMock.mockResolvedValueOnce(json({ message: 'not implemented' }, 501));
    await expect(createAuthActions(auth, new QueryClient()).signInWithGoogle()).rejects.toMatchObject({ status: 501 });
    expect(fb.signOut).toHaveBeenCalled();
  });

  it('rejects when the popup fails', async () => {
    fb.signInWithPopup.mockRejectedValueOnce({ code: 'auth/popup-closed-by-user' });
    await expect(createAuthActions(auth, new QueryClient()).signInWithGoogle()).rejects.toEqual({
      code: 'auth/popup-closed-by-user',
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('two-step sign-in', () => {
  it("turns 'auth/multi-factor-auth-required' into a challenge that a TOTP code completes", async () => {
    const user = { uid: 'u1', getIdToken: vi.fn(async () => 'id-2') };
    const resolveSignIn = vi.fn(async () => ({ user }));
    fb.signInWithEmailAndPassword.mockRejectedValueOnce({ code: 'auth/multi-factor-auth-required' });
    fb.getMultiFactorResolver.mockReturnValueOnce({
      hints: [{ factorId: 'phone', uid: 'p' }, { factorId: 'totp', uid: 'factor-1' }],
      resolveSignIn,
    });
    fetchMock.mockResolvedValueOnce(json({ categoryId: 'c1' }));

    const failure = await createAuthActions(auth, new QueryClient())
      .signIn('jane@example.com', 'pw')
      .catch((error: unknown) => error);
    expect(isSecondFactorRequired(failure)).toBe(true);
    if (!isSecondFactorRequired(failure)) return;
    await expect(failure.complete('123456')).resolves.toBe('u1');
    expect(fb.assertionForSignIn).toHaveBeenCalledWith('factor-1', '123456');
    expect(resolveSignIn).toHaveBeenCalledWith({ uid: 'factor-1', code: '123456' });
    expect(tokenStore.get()).toBe('id-2');
    expect(calls()).toEqual(['GET internal/users/u1/profile']);
  });

  it('keeps the usual sign-in messages for other failures', async () => {
    fb.signInWithEmailAndPassword.mockRejectedValueOnce({ code: 'auth/wrong-password' });
    await expect(createAuthActions(auth, new QueryClient()).signIn('a@b.co', 'x')).rejects.toEqual({
      message: 'Invalid email or password.',
    });
  });
});

describe('TOTP enrolment', () => {
  it('generates a secret with a QR URL and enrols with a verified code', async () => {
    const enroll = vi.fn(async () => {});
    const user = { email: 'jane@example.com' };
    fb.multiFactor.mockReturnValue({ getSession: async () => 'session', enroll, enrolledFactors: [] });
    const secret = { secretKey: 'ABC123', generateQrCodeUrl: vi.fn(() => 'otpauth://totp/Uplift:jane') };
    fb.generateSecret.mockResolvedValueOnce(secret);
    const security = createAccountSecurity({ currentUser: user } as never);

    expect(security.hasTotp()).toBe(false);
    const enrollment = await security.startTotpEnrollment();
    expect(fb.generateSecret).toHaveBeenCalledWith('session');
    expect(secret.generateQrCodeUrl).toHaveBeenCalledWith('jane@example.com', 'Uplift');
    expect(enrollment).toMatchObject({ secretKey: 'ABC123', otpauthUrl: 'otpauth://totp/Uplift:jane' });

    await enrollment.finish('654321');
    expect(fb.assertionForEnrollment).toHaveBeenCalledWith(secret, '654321');
    expect(enroll).toHaveBeenCalledWith({ secret, code: '654321' }, 'Authenticator app');

    fb.multiFactor.mockReturnValue({ enrolledFactors: [{ factorId: 'totp' }] });
    expect(security.hasTotp()).toBe(true);
  });

  it('rejects a wrong code with a message for people', async () => {
    fb.multiFactor.mockReturnValue({
      getSession: async () => 'session',
      enroll: vi.fn().mockRejectedValue({ code: 'auth/invalid-verification-code' }),
      enrolledFactors: [],
    });
    fb.generateSecret.mockResolvedValueOnce({ secretKey: 'K', generateQrCodeUrl: () => 'otpauth://x' });
    const enrollment = await createAccountSecurity({ currentUser: { email: 'a@b.co' } } as never).startTotpEnrollment();
    await expect(enrollment.finish('000000')).rejects.toThrow(TOTP_CODE_INVALID_MESSAGE);
  });

  it("says two-step sign-in is not available where the server has no TOTP (the Auth emulator's answer)", async () => {
    fb.multiFactor.mockReturnValue({ getSession: async () => 'session', enrolledFactors: [] });
    // What the SDK makes of the emulator's 'INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))'.
    fb.generateSecret.mockRejectedValueOnce(
      Object.assign(new Error('Firebase: ((Missing phoneEnrollmentInfo.)) (auth/invalid-argument).'), { code: 'auth/invalid-argument' }),
    );
    await expect(
      createAccountSecurity({ currentUser: { email: 'a@b.co' } } as never).startTotpEnrollment(),
    ).rejects.toThrow(TOTP_NOT_AVAILABLE_MESSAGE);
  });
});

describe('totpErrorMessage', () => {
  it('says what happened for every failure, never "an unknown error"', () => {
    const cases: [unknown, string][] = [
      [{ code: 'auth/operation-not-allowed' }, TOTP_NOT_AVAILABLE_MESSAGE],
      [{ code: 'auth/invalid-argument', message: 'Firebase: ((Missing phoneEnrollmentInfo.)) (auth/invalid-argument).' }, TOTP_NOT_AVAILABLE_MESSAGE],
      [{ code: 'auth/network-request-failed' }, 'We could not reach the sign-in service. Please check your connection and try again.'],
      [{ code: 'auth/too-many-requests' }, 'Too many attempts in a short time. Please wait a few minutes and try again.'],
      [{ code: 'auth/invalid-multi-factor-session' }, 'This sign-in step took too long and has expired. Please start again.'],
      [{ code: 'auth/second-factor-already-in-use' }, 'Two-step sign-in is already on for this account.'],
      [{ code: 'auth/invalid-verification-code' }, TOTP_CODE_INVALID_MESSAGE],
      [{ code: 'auth/invalid-credential' }, TOTP_PASSWORD_INVALID_MESSAGE],
      [{ code: 'auth/internal-error' }, 'The sign-in service refused this two-step sign-in step (internal-error). Please try again.'],
      [{ code: 'auth/invalid-argument', message: 'bad' }, 'The sign-in service refused this two-step sign-in step (invalid-argument). Please try again.'],
      [new Error('boom'), 'The sign-in service refused this two-step sign-in step. Please try again.'],
      [undefined, 'The sign-in service refused this two-step sign-in step. Please try again.'],
    ];
    for (const [error, want] of cases) {
      expect(totpErrorMessage(error)).toBe(want);
      expect(totpErrorMessage(error)).not.toMatch(/unknown error/i);
    }
  });
});

describe('turning two-step sign-in off', () => {
  const totpFactor = { factorId: 'totp', uid: 'factor-1' };
  const user = { email: 'jane@example.com' };

  it('signs in afresh with the password and a current code, then removes the factor', async () => {
    const unenroll = vi.fn(async () => {});
    fb.multiFactor.mockReturnValue({ enrolledFactors: [totpFactor], unenroll });
    const mfaRequired = { code: 'auth/multi-factor-auth-required' };
    fb.reauthenticateWithCredential.mockRejectedValueOnce(mfaRequired);
    const resolveSignIn = vi.fn(async () => ({}));
    fb.getMultiFactorResolver.mockReturnValueOnce({ hints: [{ factorId: 'phone', uid: 'p' }, totpFactor], resolveSignIn });
    const auth = { currentUser: user };

    await createAccountSecurity(auth as never).disableTotp('pw-1', '123456');
    expect(fb.reauthenticateWithCredential).toHaveBeenCalledWith(user, { email: 'jane@example.com', password: 'pw-1' });
    expect(fb.getMultiFactorResolver).toHaveBeenCalledWith(auth, mfaRequired);
    expect(resolveSignIn).toHaveBeenCalledWith({ uid: 'factor-1', code: '123456' });
    expect(unenroll).toHaveBeenCalledWith(totpFactor);
  });

  it('keeps the factor when the password or the code is wrong, with a message for people', async () => {
    const unenroll = vi.fn(async () => {});
    fb.multiFactor.mockReturnValue({ enrolledFactors: [totpFactor], unenroll });
    fb.reauthenticateWithCredential.mockRejectedValueOnce({ code: 'auth/invalid-credential' });
    await expect(createAccountSecurity({ currentUser: user } as never).disableTotp('nope', '123456')).rejects.toThrow(
      TOTP_PASSWORD_INVALID_MESSAGE,
    );

    fb.reauthenticateWithCredential.mockRejectedValueOnce({ code: 'auth/multi-factor-auth-required' });
    fb.getMultiFactorResolver.mockReturnValueOnce({
      hints: [totpFactor],
      resolveSignIn: vi.fn().mockRejectedValue({ code: 'auth/invalid-verification-code' }),
    });
    await expect(createAccountSecurity({ currentUser: user } as never).disableTotp('pw-1', '000000')).rejects.toThrow(
      TOTP_CODE_INVALID_MESSAGE,
    );
    expect(unenroll).not.toHaveBeenCalled();
  });
});

describe('confirming a sign-in for new recovery codes', () => {
  const totpFactor = { factorId: 'totp', uid: 'factor-1' };

  it('signs in afresh with the password and a current code, and stores the new token at once', async () => {
    const getIdToken = vi.fn(async (force?: boolean) => (force ? 'fresh-token' : 'old-token'));
    const user = { email: 'jane@example.com', getIdToken };
    fb.reauthenticateWithCredential.mockRejectedValueOnce({ code: 'auth/multi-factor-auth-required' });
    const resolveSignIn = vi.fn(async () => ({}));
    fb.getMultiFactorResolver.mockReturnValueOnce({ hints: [totpFactor], resolveSignIn });
    tokenStore.set('old-token');

    await createAccountSecurity({ currentUser: user } as never).confirmSignIn('pw-1', '123456');
    expect(fb.reauthenticateWithCredential).toHaveBeenLastCalledWith(user, { email: 'jane@example.com', password: 'pw-1' });
    expect(resolveSignIn).toHaveBeenCalledWith({ uid: 'factor-1', code: '123456' });
    expect(getIdToken).toHaveBeenCalledWith(true);
    expect(tokenStore.get()).toBe('fresh-token');
  });

  it('keeps the old token when the code is wrong, with a message for people', async () => {
    const getIdToken = vi.fn(async () => 'fresh-token');
    fb.reauthenticateWithCredential.mockRejectedValueOnce({ code: 'auth/multi-factor-auth-required' });
    fb.getMultiFactorResolver.mockReturnValueOnce({
      hints: [totpFactor],
      resolveSignIn: vi.fn().mockRejectedValue({ code: 'auth/invalid-verification-code' }),
    });
    tokenStore.set('old-token');
    await expect(
      createAccountSecurity({ currentUser: { email: 'jane@example.com', getIdToken } } as never).confirmSignIn('pw-1', '000000'),
    ).rejects.toThrow(TOTP_CODE_INVALID_MESSAGE);
    expect(getIdToken).not.toHaveBeenCalled();
    expect(tokenStore.get()).toBe('old-token');
  });
});
