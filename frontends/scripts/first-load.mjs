// What a first visit downloads: every script a cold-cache page load fetches
// until the page shows its content and no script has come for 1.5 s, in Debian's
// Chromium. Used by the bundle budget (make test) and bench-web (make bench).
import { gzipSync, constants } from 'node:zlib';
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

/** Gzip size at level 9: the same figure whatever the server sends. */
export const gzipSize = (buffer) => gzipSync(buffer, { level: constants.Z_BEST_COMPRESSION }).length;

/**
 * Loads url in page with the HTTP cache off and collects the scripts.
 * ready(page) resolves when the content a person came for is on screen.
 * Returns each script (url, raw and gzip bytes, what the server sent, and
 * whether it had arrived before the content showed) and the totals.
 */
export async function measureFirstLoad(page, url, ready) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const transfer = new Map();
  cdp.on('Network.loadingFinished', (event) => transfer.set(event.requestId, event.encodedDataLength));
  const requestIds = new Map();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') requestIds.set(event.response.url, { id: event.requestId, encoding: event.response.headers['content-encoding'] ?? event.response.headers['Content-Encoding'] ?? '' });
  });

  const responses = [];
  let lastScriptAt = Date.now();
  const onResponse = (response) => {
    if (response.request().resourceType() !== 'script') return;
    responses.push(response);
    lastScriptAt = Date.now();
  };
  page.on('response', onResponse);
  const started = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  await ready(page);
  const contentAt = Date.now() - started;
  const readyAt = await page.evaluate(() => performance.now());
  // Scripts still coming after the content showed count too, until none has
  // come for a while (not 'networkidle': Home keeps its event stream open).
  while (Date.now() - lastScriptAt < 1500) await page.waitForTimeout(250);
  page.off('response', onResponse);
  // Resource timing: when each script finished, relative to the navigation.
  const timings = await page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType('resource').map((entry) => [entry.name, entry.responseEnd])),
  );
  const scripts = [];
  for (const response of responses) {
    const body = await response.body().catch(() => Buffer.alloc(0));
    const info = requestIds.get(response.url());
    scripts.push({
      url: response.url(),
      raw: body.length,
      gzip: gzipSize(body),
      sent: info ? (transfer.get(info.id) ?? 0) : 0,
      encoding: info?.encoding ?? '',
      beforeContent: (timings[response.url()] ?? Infinity) <= readyAt,
    });
  }
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.detach();
  return {
    url,
    contentMs: contentAt,
    scripts,
    raw: scripts.reduce((sum, s) => sum + s.raw, 0),
    gzip: scripts.reduce((sum, s) => sum + s.gzip, 0),
    sent: scripts.reduce((sum, s) => sum + s.sent, 0),
  };
}

export const kb = (bytes) => (bytes / 1024).toFixed(1);

/** One line per script and a total, for people reading a terminal. */
export function formatLoad(label, load) {
  const lines = [`${label}: ${kb(load.raw)} KB raw, ${kb(load.gzip)} KB gzip, ${kb(load.sent)} KB sent (${load.scripts.length} scripts; content after ${load.contentMs} ms)`];
  for (const s of [...load.scripts].sort((a, b) => b.gzip - a.gzip)) {
    const name = s.url.replace(/^https?:\/\/[^/]+/, (origin) => origin.replace(/^https?:\/\//, ''));
    lines.push(`  ${kb(s.raw).padStart(7)} raw ${kb(s.gzip).padStart(6)} gz ${kb(s.sent).padStart(6)} sent ${(s.encoding || 'identity').padEnd(8)} ${s.beforeContent ? 'before' : 'after '} ${name}`);
  }
  return lines.join('\n');
}
