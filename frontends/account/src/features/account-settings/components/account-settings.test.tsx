import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser, configureHttp, getAuditLogQueryOptions, type AccountSecurity } from '@uplift/platform';
import { json, renderWithProviders, signedInAs } from '@uplift/platform/testing';
import { AccountSettings } from './account-settings';
import { RECOVERY_CODES_COPIED, RECOVERY_CODES_FILE, recoveryCodesText } from './recovery-codes';
import { RECOVERY_CODES_NOT_MADE } from './two-step-row';

const fetchMock = vi.fn<typeof fetch>();

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

/** jsdom's Blob has no text(). */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

function renderSettings(security?: AccountSecurity) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  // The stored user, as the avatar menu has already loaded it.
  client.setQueryData(['users', 'u1'], { id: 'u1', email: 'jane@example.com' });
  // Nobody acted for this user (the audit log has its own test).
  client.setQueryData(getAuditLogQueryOptions('u1', 'subject').queryKey, { entries: [] });
  return renderWithProviders(<AccountSettings />, { session: signedInAs('u1'), queryClient: client, accountSecurity: security })
    .user;
}

describe('AccountSettings', () => {
  it("shows the signed-in user's email", () => {
    renderSettings();
    expect(screen.getByText('Email')).toBeTruthy();
    expect(screen.getByText('jane@example.com')).toBeTruthy();
  });

  it("edits the email: 'Update email' waits for input, then success reloads /", async () => {
    let answer: (response: Response) => void = () => {};
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    const user = renderSettings();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const field = screen.getByLabelText('New email') as HTMLInputElement;
    expect(field.type).toBe('email');
    const submit = screen.getByRole('button', { name: 'Update email' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await user.type(field, 'new@example.com');
    expect(submit.disabled).toBe(false);
    await user.click(submit);
    await waitFor(() => expect(submit.disabled).toBe(true));
    expect(String(fetchMock.mock.calls[0]![0])).toBe('http://gw.test/internal/users/u1/updateEmail');
    expect(fetchMock.mock.calls[0]![1]!.body).toBe('{"email":"new@example.com"}');
    answer(json({}));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
  });

  it('signs in again with the returned token before reloading, since the change ended the session', async () => {
    const order: string[] = [];
    const resumeSession = vi.fn(async (token: string) => {
      order.push(`resume ${token}`);
    });
    assign.mockImplementation(() => order.push('reload'));
    fetchMock.mockResolvedValueOnce(json({ signInToken: 'fresh-token' }));
    const user = renderSettings({ hasTotp: () => false, startTotpEnrollment: vi.fn(), disableTotp: vi.fn(), confirmSignIn: vi.fn(), resumeSession });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByLabelText('New email'), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Update email' }));
    await waitFor(() => expect(order).toEqual(['resume fresh-token', 'reload']));
  });

  it("shows the server's message, or the fallback, and re-enables the button", async () => {
    fetchMock
      .mockResolvedValueOnce(json({ message: 'That email is already in use.' }, 409))
      .mockResolvedValueOnce(json({}, 501));
    const user = renderSettings();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.type(screen.getByLabelText('New email'), 'taken@example.com');
    await user.click(screen.getByRole('button', { name: 'Update email' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('That email is already in use.');
    expect(screen.getByLabelText('New email').getAttribute('aria-describedby')).toBe(alert.id);
    expect((screen.getByRole('button', { name: 'Update email' }) as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Update email' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('An unknown error occurred. Please try again.'),
    );
    expect(assign).not.toHaveBeenCalled();
  });

  it("'Reset password' sends the reset email to the account email and shows the note", async () => {
    fetchMock.mockResolvedValueOnce(json({}));
    const user = renderSettings();
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('status')).textContent).toBe('An email as been sent to jane@example.com');
    expect(String(fetchMock.mock.calls[0]![0])).toBe('http://gw.test/internal/users/resetPassword');
    expect(fetchMock.mock.calls[0]![1]!.body).toBe('{"email":"jane@example.com"}');
  });

  it('enrols two-step sign-in: QR code, secret, then a verified code', async () => {
    const finish = vi
      .fn<(code: string) => Promise<void>>()
      .mockRejectedValueOnce(new Error('That code is not valid. Please try again.'))
      .mockResolvedValueOnce(undefined);
    const security: AccountSecurity = {
      hasTotp: () => false,
      startTotpEnrollment: vi.fn(async () => ({
        secretKey: 'JBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/Uplift:jane%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Uplift',
        finish,
      })),
      disableTotp: vi.fn(),
      confirmSignIn: vi.fn(),
      resumeSession: vi.fn(),
    };
    const codes = Array.from({ length: 10 }, (_, i) => `ABCD-EFGH-JKMN-PQ${String(i).padStart(2, '0')}`);
    fetchMock.mockResolvedValueOnce(json({ codes }));
    const user = renderSettings(security);
    await user.click(screen.getByRole('button', { name: 'Set up two-step sign-in' }));
    const qr = (await screen.findByRole('img', { name: 'QR code for your authenticator app' })) as HTMLImageElement;
    expect(qr.src).toMatch(/^data:image\/png;base64,/);
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    await user.type(screen.getByLabelText('Verification code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not valid. Please try again.');
    await user.clear(screen.getByLabelText('Verification code'));
    await user.type(screen.getByLabelText('Verification code'), '222222');
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    const row = (await screen.findByText('On')).closest('div')!;
    expect(within(row).getAllByRole('status')[0]!.textContent).toMatch(/Two-step sign-in is on/);
    expect(finish).toHaveBeenLastCalledWith('222222');
    // Then the recovery codes, made by the server once two-step is on, shown once.
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(codes);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('http://gw.test/internal/users/createRecoveryCodes');
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('POST');
    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(screen.getByRole('button', { name: 'New recovery codes' })).toBeTruthy();
  });

  it('says so when two-step is on but its recovery codes could not be made', async () => {
    fetchMock.mockResolvedValueOnce(json({ message: 'For your security, confirm your password and a current code from your authenticator app first.' }, 400));
    const security: AccountSecurity = {
      hasTotp: () => false,
      startTotpEnrollment: vi.fn(async () => ({ secretKey: 'S', otpauthUrl: 'otpauth://totp/x?secret=S', finish: vi.fn(async () => {}) })),
      disableTotp: vi.fn(),
      confirmSignIn: vi.fn(),
      resumeSession: vi.fn(),
    };
    const user = renderSettings(security);
    await user.click(screen.getByRole('button', { name: 'Set up two-step sign-in' }));
    await user.type(await screen.findByLabelText('Verification code'), '222222');
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect((await screen.findByRole('alert')).textContent).toBe(RECOVERY_CODES_NOT_MADE);
    expect(screen.getByText('On')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New recovery codes' })).toBeTruthy();
  });

  it('makes new recovery codes after the password and a fresh code, and offers them to copy and download', async () => {
    const codes = ['0123-4567-89AB-CDEF', 'GHJK-MNPQ-RSTV-WXYZ'];
    fetchMock.mockResolvedValueOnce(json({ codes }));
    const confirmSignIn = vi
      .fn<(password: string, code: string) => Promise<void>>()
      .mockRejectedValueOnce(new Error('That password is not right. Please try again.'))
      .mockResolvedValueOnce(undefined);
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        blobs.push(blob);
        return 'blob:codes';
      }),
      revokeObjectURL: vi.fn(),
    }));
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const user = renderSettings({ hasTotp: () => true, startTotpEnrollment: vi.fn(), disableTotp: vi.fn(), confirmSignIn, resumeSession: vi.fn() });
    await user.click(screen.getByRole('button', { name: 'New recovery codes' }));
    await user.type(screen.getByLabelText('Password'), 'pw-1');
    await user.type(screen.getByLabelText('Verification code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Make new codes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That password is not right. Please try again.');
    expect(fetchMock).not.toHaveBeenCalled(); // no codes without the fresh sign-in
    await user.click(screen.getByRole('button', { name: 'Make new codes' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(codes);
    expect(confirmSignIn).toHaveBeenLastCalledWith('pw-1', '111111');

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(codes.join('\n'));
    expect(await screen.findByText(RECOVERY_CODES_COPIED)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(clicked[0]!.download).toBe(RECOVERY_CODES_FILE);
    expect(await readBlob(blobs[0]!)).toBe(recoveryCodesText(codes));
    expect(recoveryCodesText(codes).split('\n')).toEqual(expect.arrayContaining(codes));
    vi.unstubAllGlobals();
    click.mockRestore();
  });

  it('shows when enrolment cannot start (e.g. the Auth emulator refuses TOTP)', async () => {
    const security: AccountSecurity = {
      hasTotp: () => false,
      startTotpEnrollment: vi.fn().mockRejectedValue(new Error('An unknown error occurred. Please try again.')),
      disableTotp: vi.fn(),
      confirmSignIn: vi.fn(),
      resumeSession: vi.fn(),
    };
    const user = renderSettings(security);
    await user.click(screen.getByRole('button', { name: 'Set up two-step sign-in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('An unknown error occurred. Please try again.');
  });

  it('turns two-step sign-in off after the password and a fresh code', async () => {
    const disableTotp = vi
      .fn<(password: string, code: string) => Promise<void>>()
      .mockRejectedValueOnce(new Error('That code is not valid. Please try again.'))
      .mockResolvedValueOnce(undefined);
    const user = renderSettings({ hasTotp: () => true, startTotpEnrollment: vi.fn(), disableTotp, confirmSignIn: vi.fn(), resumeSession: vi.fn() });
    await user.click(screen.getByRole('button', { name: 'Turn off two-step sign-in' }));
    const turnOff = screen.getByRole('button', { name: 'Turn off' }) as HTMLButtonElement;
    expect(turnOff.disabled).toBe(true);
    await user.type(screen.getByLabelText('Password'), 'pw-1');
    await user.type(screen.getByLabelText('Verification code'), '111111');
    await user.click(turnOff);
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not valid. Please try again.');
    expect(screen.getByText('On')).toBeTruthy();
    await user.clear(screen.getByLabelText('Verification code'));
    await user.type(screen.getByLabelText('Verification code'), '222222');
    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Off')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/Two-step sign-in is off/);
    expect(disableTotp).toHaveBeenLastCalledWith('pw-1', '222222');
    expect(screen.getByRole('button', { name: 'Set up two-step sign-in' })).toBeTruthy();
  });

  it('says two-step sign-in is on for an enrolled user', () => {
    renderSettings({
      hasTotp: () => true,
      startTotpEnrollment: vi.fn(),
      disableTotp: vi.fn(),
      confirmSignIn: vi.fn(),
      resumeSession: vi.fn(),
    });
    expect(screen.queryByRole('button', { name: 'Set up two-step sign-in' })).toBeNull();
    expect(screen.getByText('On')).toBeTruthy();
  });
});
