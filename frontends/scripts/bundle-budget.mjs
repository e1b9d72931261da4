// The first-load budget (issue 14, goal 3): the JavaScript a cold visit to
// Home downloads, shell and Home together, must stay within BUDGET_KB gzip.
// Signed out it is measured on the built apps served by serve.mjs in this
// process; signed in on the running stack (UPLIFT_WEB_URL and the Auth
// emulator, as `make test` and `make bench-web` give them), with an account
// signed up through the UI. Exits 1 when a measured load is over budget.
//
//   node scripts/bundle-budget.mjs [--verbose]
import http from 'node:http';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHandler, runtimeEnv } from './serve.mjs';
import { formatLoad, kb, launchChromium, measureFirstLoad } from './first-load.mjs';

/** Issue 14's goal, for signed out and signed in alike; make test enforces it. */
export const BUDGET_KB = 174;
const REMOTES = ['home', 'analytics', 'connections', 'account'];

/** Serves shell and remotes from their dist folders on free loopback ports; returns the shell's URL and a stop(). */
export async function serveBuilt() {
  const listen = (handler) =>
    new Promise((resolve) => {
      const server = http.createServer(handler);
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  const servers = {};
  const remoteEnv = {};
  // Remotes first: the shell's env.js names their addresses.
  for (const name of REMOTES) {
    servers[name] = await listen(createHandler({ name }, { env: runtimeEnv({ UPLIFT_LOCAL: 'true' }) }));
    remoteEnv[`UPLIFT_REMOTE_${name.toUpperCase()}_URL`] = `http://127.0.0.1:${servers[name].address().port}/remoteEntry.js`;
  }
  const shellEnv = runtimeEnv({ UPLIFT_LOCAL: 'true', ...remoteEnv });
  const shellHandler = createHandler({ name: 'shell', spa: true }, { env: shellEnv });
  servers.shell = await listen(shellHandler);
  return {
    url: `http://127.0.0.1:${servers.shell.address().port}`,
    stop: () => Promise.all(Object.values(servers).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); }))),
  };
}

/** Content a signed-out visitor came for: the landing page (its own chunk, counted in the first load). */
export const signedOutReady = (page) => page.getByRole('heading', { name: 'Grow your store the easy way', level: 1 }).waitFor();

/** Signed in: the account menu and Home's heading. */
export const signedInReady = async (page) => {
  await page.getByRole('button', { name: 'Open account menu' }).waitFor();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
};

/** Signs a fresh account up through the dialog, as a person would. */
export async function signUp(page, baseUrl) {
  const email = `budget-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'First time here?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign up' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill('correct-horse-battery-staple');
  await dialog.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('button', { name: 'Open account menu' }).waitFor({ timeout: 30_000 });
  return email;
}

/** Measures Home's first load signed out (built apps) and, with a stack, signed in. */
export async function measureHome({ stackUrl = process.env.UPLIFT_WEB_URL } = {}) {
  const browser = await launchChromium();
  const served = await serveBuilt();
  try {
    const results = {};
    const out = await browser.newContext();
    results.signedOut = await measureFirstLoad(await out.newPage(), `${served.url}/`, signedOutReady);
    await out.close();
    if (stackUrl) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signUp(page, stackUrl);
      results.signedIn = await measureFirstLoad(await context.newPage(), `${stackUrl.replace(/\/$/, '')}/`, signedInReady);
      await context.close();
    }
    return results;
  } finally {
    await served.stop();
    await browser.close();
  }
}

async function main() {
  const verbose = process.argv.includes('--verbose');
  const results = await measureHome();
  let over = false;
  for (const label of ['signedOut', 'signedIn']) {
    const load = results[label];
    const name = label === 'signedOut' ? 'Home signed out' : 'Home signed in';
    if (!load) {
      console.log(`${name}: not measured (no stack: UPLIFT_WEB_URL unset; make test and make bench-web set it)`);
      continue;
    }
    const ok = load.gzip <= BUDGET_KB * 1024;
    over ||= !ok;
    console.log(`${ok ? 'ok  ' : 'OVER'} first load, ${name}: ${kb(load.gzip)} KB gzip of ${BUDGET_KB} KB (${kb(load.raw)} KB raw, ${load.scripts.length} scripts)`);
    if (verbose || !ok) console.log(formatLoad(name, load));
  }
  if (over) {
    console.error('First-load JavaScript is over its gzip budget (issue 14): load what the first paint does not need later (dynamic import, frontends/README.md).');
    process.exitCode = 1;
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
