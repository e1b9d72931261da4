import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import {
  authEmulatorUrl,
  createEmulatorUser,
  emulatorSignIn,
  fillSignIn,
  freshEmail,
  openSignedOut,
  PASSWORD,
  signUpThroughUi,
  smtpSinkApi,
} from './support';

/** Sets emulator account fields as the project owner (test set-up only). */
async function updateEmulatorAccount(page: Page, data: Record<string, unknown>): Promise<void> {
  const response = await page.request.post(
    `${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/projects/demo-uplift/accounts:update`,
    { headers: { Authorization: 'Bearer owner' }, data },
  );
  expect(response.ok(), await response.text()).toBe(true);
}

async function signOutThroughUi(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
}

async function signInThroughUi(page: Page, email: string, password: string): Promise<void> {
  await fillSignIn(page, email, password);
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();
}

async function openAccountSettings(page: Page) {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  return page.getByRole('dialog', { name: 'Account Settings' });
}

/**
 * The reset link for `email`: from the SMTP sink (MailDev's REST API; tried at
 * /email and /api/email), else from the emulator's record of issued codes.
 */
async function resetLinkFor(page: Page, email: string): Promise<string> {
  const fromSink = async (): Promise<string | null> => {
    for (const path of ['/email', '/api/email']) {
      const response = await page.request.get(`${smtpSinkApi}${path}`).catch(() => null);
      if (!response?.ok()) continue;
      const mails = (await response.json().catch(() => [])) as Array<{
        to?: Array<{ address?: string }>;
        html?: string;
        text?: string;
      }>;
      // The address's verification email has an action link too, and may
      // arrive after the reset's: only a resetPassword link will do.
      for (const mail of [...mails].reverse()) {
        if (!mail.to?.some((to) => to.address?.toLowerCase() === email)) continue;
        const body = `${mail.html ?? ''} ${mail.text ?? ''}`.replace(/&amp;/g, '&');
        const link = body.match(/https?:\/\/[^\s"'<>]*oobCode=[^\s"'<>]+/g)?.find((l) => l.includes('mode=resetPassword'));
        if (link) return link;
      }
    }
    return null;
  };
  const fromEmulator = async (): Promise<string | null> => {
    const response = await page.request.get(`${authEmulatorUrl}/emulator/v1/projects/demo-uplift/oobCodes`);
    const { oobCodes = [] } = (await response.json()) as {
      oobCodes?: Array<{ email: string; requestType: string; oobLink: string }>;
    };
    return oobCodes.reverse().find((c) => c.email === email && c.requestType === 'PASSWORD_RESET')?.oobLink ?? null;
  };
  let link: string | null = null;
  await expect
    .poll(async () => (link = (await fromSink()) ?? (await fromEmulator())), { timeout: 20_000 })
    .not.toBeNull();
  return link!;
}

/** RFC 6238 code (SHA-1, 6 digits, 30 s) from a base32 secret, as an authenticator app computes it. */
function totpCode(base32Secret: string, now = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Secret.replace(/=+$/, '').toUpperCase()) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 1000 / 30)));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0xf;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

// The Firebase SDK's popup needs Google's gapi script (apis.google.com) even
// against the Auth emulator, and this machine has no internet: so the popup
// flow itself cannot run here. What can run is the spec's failure path; the
// server side (finishGoogleAuth) is covered by the users service's component
// test with the emulator's Google provider.
test("Continue with Google: when Google's sign-in cannot load, the spec's alert shows", async ({ page }) => {
  await page.route('https://apis.google.com/**', (route) => route.abort());
  await openSignedOut(page);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The alert is dismissed as it opens: it blocks the page, and the click
  // may still be waiting on the popup's navigation when it comes, so
  // awaiting the click before handling it can deadlock.
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Continue with Google' }).click();
  await expect.poll(() => alerts).toEqual(['alert: Something went wrong, please try again.']);
  // Still signed out, with the dialog open to try another way.
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toHaveCount(0);
});

test('reset password: the dialog sends the email and the link sets a new password', async ({ page, baseURL }) => {
  const email = freshEmail('reset');
  await signUpThroughUiFresh(page, email);
  await signOutThroughUi(page);

  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Forgot password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset password' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Reset password' }).click();
  await expect(dialog.getByRole('status')).toHaveText(`An email as been sent to ${email}`);
  await expect(dialog.getByRole('button', { name: 'Or go back to Sign in' })).toBeVisible();

  const link = new URL(await resetLinkFor(page, email));
  const web = new URL(baseURL ?? 'http://localhost:3000');
  // A link into the web app is followed as it is. The emulator's links point at its own
  // action page instead; the web app's page takes the same action parameters.
  const target = link.origin === web.origin ? link.toString() : `/reset-password${link.search}`;
  await page.goto(target);
  await expect(page.getByText(`Choose a new password for ${email}.`)).toBeVisible();
  const newPassword = `${PASSWORD}-new`;
  await page.getByLabel('New password').fill(newPassword);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await signOutThroughUi(page);
  await signInThroughUi(page, email, newPassword);
});

test('Account Settings changes the email and reloads /', async ({ page }) => {
  const email = freshEmail('email-old');
  const newEmail = freshEmail('email-new');
  await signUpThroughUiFresh(page, email);
  const settings = await openAccountSettings(page);
  await expect(settings.getByText(email)).toBeVisible();
  await settings.getByRole('button', { name: 'Edit' }).click();
  const update = settings.getByRole('button', { name: 'Update email' });
  await expect(update).toBeDisabled();
  await settings.getByLabel('New email').fill(newEmail);
  await expect(update).toBeEnabled();

  const reloaded = page.waitForEvent('load');
  await update.click();
  await reloaded;
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await expect(page.getByRole('menu').getByText(newEmail)).toBeVisible();

  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await signInThroughUi(page, newEmail, PASSWORD);
});

test('Account Settings: Reset password sends the email to the account address', async ({ page }) => {
  const email = freshEmail('settings-reset');
  await signUpThroughUiFresh(page, email);
  const settings = await openAccountSettings(page);
  await settings.getByRole('button', { name: 'Reset password' }).click();
  await expect(settings.getByRole('status')).toHaveText(`An email as been sent to ${email}`);
  expect(await resetLinkFor(page, email)).toContain('oobCode=');
});

test('two-step sign-in: enrol with a code, then a code is asked for at sign in', async ({ page }) => {
  const email = freshEmail('totp');
  await signUpThroughUiFresh(page, email);
  const { uid } = await emulatorSignIn(page, email, PASSWORD);
  // Firebase enrols second factors only for verified emails.
  await updateEmulatorAccount(page, { localId: uid, emailVerified: true });
  await signOutThroughUi(page);
  await signInThroughUi(page, email, PASSWORD);

  const settings = await openAccountSettings(page);
  await settings.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  const secretOrRefusal = settings.locator('.totp__secret').or(settings.getByRole('alert'));
  await expect(secretOrRefusal).toBeVisible();
  // The Firebase Auth emulator has no TOTP: accounts/mfaEnrollment:start answers
  // 400 'INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))'. Unit tests cover the rest.
  test.skip(
    await settings.getByRole('alert').isVisible(),
    'The Auth emulator refuses TOTP enrolment (Missing phoneEnrollmentInfo)',
  );

  await expect(settings.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await settings.locator('.totp__secret').textContent())!.trim();
  await settings.getByLabel('Verification code').fill(totpCode(secret));
  await settings.getByRole('button', { name: 'Verify and turn on' }).click();
  await expect(settings.getByRole('status')).toContainText('Two-step sign-in is on');
  await page.keyboard.press('Escape');

  await signOutThroughUi(page);
  await fillSignIn(page, email, PASSWORD);
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
  const challenge = page.getByRole('dialog', { name: 'Two-step sign-in' });
  await challenge.getByLabel('Verification code').fill(totpCode(secret));
  await challenge.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();
});

test('an uplifter views the site as a store owner and exits back to /dashboard', async ({ page, browser }) => {
  // The store owner signs up in a browser of their own.
  const ownerEmail = freshEmail('owner');
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signUpThroughUiFresh(ownerPage, ownerEmail);
  await ownerContext.close();

  const uplifterEmail = freshEmail('uplifter');
  await signUpThroughUiFresh(page, uplifterEmail);
  // The operator's way: usersctl sets the claim and the stored flag.
  execFileSync(fileURLToPath(new URL('../../../.bin/usersctl', import.meta.url)), ['grant-uplifter', uplifterEmail], {
    env: process.env,
    stdio: 'pipe',
  });
  // A new sign-in gets a token with the claim.
  await signOutThroughUi(page);
  await signInThroughUi(page, uplifterEmail, PASSWORD);

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search store owners' }).fill(ownerEmail);
  await page.getByRole('button', { name: 'Search' }).click();
  const owners = page.getByRole('list', { name: 'Store owners' });
  await expect(owners.getByText(ownerEmail)).toBeVisible();
  await owners.getByRole('button', { name: `View as ${ownerEmail}` }).click();

  await expect(page).toHaveURL(/\/$/);
  const banner = page.getByRole('region', { name: 'On behalf of another user' });
  await expect(banner).toHaveText(/You are navigating the site on behalf an other user/);
  await banner.getByRole('button', { name: 'exit' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('You are navigating the site on behalf an other user')).toBeHidden();
});

test('guards: signed-out visitors and non-uplifters are sent from /dashboard to /', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const email = freshEmail('not-uplifter');
  await createEmulatorUser(page, email, PASSWORD);
  await signInThroughUi(page, email, PASSWORD);
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeHidden();
});

/** Signs up a new user through the dialog, starting signed out on /. */
async function signUpThroughUiFresh(page: Page, email: string): Promise<void> {
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);
}

test('two-step sign-in on a server without it says so, never "an unknown error"', async ({ page }) => {
  const email = freshEmail('totp-refused');
  await signUpThroughUiFresh(page, email);
  const { uid } = await emulatorSignIn(page, email, PASSWORD);
  await updateEmulatorAccount(page, { localId: uid, emailVerified: true });
  await signOutThroughUi(page);
  await signInThroughUi(page, email, PASSWORD);

  const settings = await openAccountSettings(page);
  await settings.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  const secretOrRefusal = settings.locator('.totp__secret').or(settings.getByRole('alert'));
  await expect(secretOrRefusal).toBeVisible();
  test.skip(await settings.locator('.totp__secret').isVisible(), 'This Auth server offers TOTP: nothing is refused');
  // The Firebase Auth emulator has no TOTP (it answers 'Missing phoneEnrollmentInfo').
  await expect(settings.getByRole('alert')).toHaveText('Two-step sign-in is not available on this server.');
  await expect(settings.getByText(/unknown error/i)).toHaveCount(0);
});
