import { expect, test, type Page } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/**
 * The web's security headers, and the app running under its
 * Content-Security-Policy: every remote loads, Firebase Auth (the emulator)
 * works, and the browser reports no violation on the way.
 */

/**
 * Collects CSP violations from every document the page loads (across
 * navigations and reloads) and from the console.
 */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction('__reportCspViolation', (violation: string) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (v: string) => void }).__reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return violations;
}

test('the web sends its security headers and no source map references', async ({ page, request }) => {
  const response = await page.goto('/');
  expect(response).not.toBeNull();
  const headers = response!.headers();
  const policy = headers['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toMatch(/script-src [^;]*https:\/\/apis\.google\.com/);
  expect(policy).not.toContain("'unsafe-eval'");
  expect(policy).not.toMatch(/script-src [^;]*'unsafe-inline'/);
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');

  // The shell's entry script and a remote's remoteEntry.js: nosniff, and no
  // sourceMappingURL pointing the browser at full sources.
  const entry = await page.locator('script[src^="/main."]').getAttribute('src');
  expect(entry).toBeTruthy();
  const remoteEntry = await page.evaluate(() => (window as unknown as { __UPLIFT_ENV__?: Record<string, string> }).__UPLIFT_ENV__?.remoteHomeUrl);
  for (const url of [new URL(entry!, page.url()).toString(), remoteEntry ?? 'http://localhost:3001/remoteEntry.js']) {
    const script = await request.get(url);
    expect(script.ok(), url).toBe(true);
    expect(script.headers()['x-content-type-options'], url).toBe('nosniff');
    expect((await script.text()).includes('sourceMappingURL='), `${url} names its source map`).toBe(false);
  }
});

test('the app runs under the CSP: remotes, sign-up, dialogs and the Google popup attempt, with no violation', async ({ page }) => {
  const violations = await watchViolations(page);

  // Signed out: the shell and the home remote (its landing page).
  await openSignedOut(page);
  await expect(page.getByRole('heading', { name: 'Grow your store the easy way', level: 1 })).toBeVisible();

  // Google's sign-in script is allowed (this machine is offline, so it cannot
  // load: the spec's alert shows, and no violation may be reported).
  await page.route('https://apis.google.com/**', (route) => route.abort());
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Dismissed as it opens: the blocking alert can come before the click is done.
  const alerts: string[] = [];
  page.once('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Continue with Google' }).click();
  await expect.poll(() => alerts.length).toBe(1);
  await page.keyboard.press('Escape');

  // Sign up against the Auth emulator, then every remote.
  await signUpThroughUi(page, freshEmail('csp'), PASSWORD);
  const main = page.getByRole('navigation', { name: 'Main navigation' });
  await main.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await main.getByRole('link', { name: 'Connections' }).click();
  await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
  await main.getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Account Settings' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Business profile' }).click();
  await expect(page.getByRole('dialog', { name: 'Business profile' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A reload starts everything again from a signed-in session (token refresh, remotes).
  await page.reload();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();

  expect(violations).toEqual([]);
});
