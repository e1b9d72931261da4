import { expect, test } from '@playwright/test';
import {
  authEmulatorUrl,
  emulatorSignIn,
  expectNoSeriousViolations,
  fillSignIn,
  freshEmail,
  gatewayUrl,
  openSignedOut,
  PASSWORD,
} from './support';

/**
 * Two-step recovery codes through the real stack. The Auth emulator holds
 * only phone second factors (it refuses TOTP), so the account gets a phone
 * factor through the emulator's admin API, and the one thing rewritten is
 * the emulator's own sign-in answer, which then names that factor an
 * authenticator app as Firebase does for TOTP. The codes are made by the
 * users service; using one removes the factor in the emulator, and the
 * password alone then signs in.
 */
const REJECTED =
  'That recovery code does not work for this email: it may be mistyped or already used. After 5 wrong codes, recovery is paused for an hour.';

test('a lost phone: a recovery code at the code prompt turns two-step off and the password signs in', async ({ page }) => {
  test.setTimeout(60_000);
  const email = freshEmail('recovery');
  const signUp = await page.request.post(`${gatewayUrl}/internal/users`, {
    data: { email, password: PASSWORD, suppressWelcomeEmail: true },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const { uid, idToken } = await emulatorSignIn(page, email, PASSWORD);
  const factor = await page.request.post(`${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/projects/demo-uplift/accounts:update`, {
    headers: { Authorization: 'Bearer owner' },
    data: { localId: uid, mfa: { enrollments: [{ mfaEnrollmentId: 'lost-phone', displayName: 'Authenticator app', phoneInfo: '+15555550100' }] } },
  });
  expect(factor.ok(), await factor.text()).toBe(true);
  const made = await page.request.post(`${gatewayUrl}/internal/users/createRecoveryCodes`, {
    headers: { Authorization: `Bearer ${idToken}` },
    data: {},
  });
  expect(made.ok(), await made.text()).toBe(true);
  const { codes } = (await made.json()) as { codes: string[] };
  expect(codes).toHaveLength(10);

  const factorsNamed: string[] = [];
  await page.route('**/accounts:signInWithPassword*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { mfaInfo?: { mfaEnrollmentId: string; displayName?: string }[] };
    if (body.mfaInfo) {
      factorsNamed.push(...body.mfaInfo.map((f) => f.mfaEnrollmentId));
      body.mfaInfo = body.mfaInfo.map(({ mfaEnrollmentId, displayName }) => ({ mfaEnrollmentId, displayName, totpInfo: {} }));
    }
    await route.fulfill({ response, json: body });
  });

  await openSignedOut(page);
  await fillSignIn(page, email, PASSWORD);
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
  const prompt = page.getByRole('dialog', { name: 'Two-step sign-in' });
  await expect(prompt.getByLabel('Verification code')).toBeVisible();
  expect(factorsNamed).toEqual(['lost-phone']); // the emulator itself asked for the second factor
  await expectNoSeriousViolations(page, 'Two-step sign-in dialog', '[role="dialog"]');
  await prompt.getByRole('button', { name: 'Use a recovery code' }).click();

  const recover = page.getByRole('dialog', { name: 'Use a recovery code' });
  await expect(recover.getByLabel('Email')).toHaveValue(email);
  await recover.getByLabel('Recovery code').fill('0000-0000-0000-0000');
  await recover.getByRole('button', { name: 'Use recovery code' }).click();
  await expect(recover.getByRole('alert')).toHaveText(REJECTED);
  await expectNoSeriousViolations(page, 'Use a recovery code dialog, with its error', '[role="dialog"]');

  // The keyboard alone: Enter in the field sends the code.
  await recover.getByLabel('Recovery code').fill(codes[4]!.toLowerCase());
  await recover.getByLabel('Recovery code').press('Enter');
  const off = page.getByRole('dialog', { name: 'Two-step sign-in is off' });
  await expect(off.getByRole('status')).toContainText('two-step sign-in is now off');
  await expectNoSeriousViolations(page, 'Two-step sign-in is off dialog', '[role="dialog"]');
  await off.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();

  // The emulator holds no second factor now, and the code is spent.
  const lookup = await page.request.post(`${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/projects/demo-uplift/accounts:lookup`, {
    headers: { Authorization: 'Bearer owner' },
    data: { localId: [uid] },
  });
  const account = ((await lookup.json()) as { users: { mfaInfo?: unknown[] }[] }).users[0]!;
  expect(account.mfaInfo ?? []).toEqual([]);
  const again = await page.request.post(`${gatewayUrl}/internal/users/useRecoveryCode`, { data: { email, code: codes[4] } });
  expect(again.status()).toBe(400);
  expect(((await again.json()) as { message: string }).message).toBe(REJECTED);
  // An unknown email is answered the same way.
  const stranger = await page.request.post(`${gatewayUrl}/internal/users/useRecoveryCode`, {
    data: { email: freshEmail('nobody'), code: codes[5] },
  });
  expect(stranger.status()).toBe(400);
  expect(((await stranger.json()) as { message: string }).message).toBe(REJECTED);
});
