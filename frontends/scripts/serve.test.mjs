// @vitest-environment node
// The web's security headers: the policy built from the configuration, and
// what a real request to serve.mjs's handler gets back.
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders } from './security-headers.mjs';
import { cacheControlFor, createHandler, etagMatches, pickEncoding, runtimeEnv } from './serve.mjs';

/** The production settings of deploy/k8s/base/config.yaml (uplift-web-config), as /env.js carries them. */
const production = runtimeEnv({
  UPLIFT_FIREBASE_API_KEY: 'key',
  UPLIFT_FIREBASE_PROJECT_ID: 'your-firebase-project',
  UPLIFT_FIREBASE_APP_ID: 'app',
  UPLIFT_FIREBASE_MEASUREMENT_ID: 'measurement',
  UPLIFT_API_DOMAIN: 'api.example.com',
  UPLIFT_STREAM_DOMAIN: 'api.example.com',
  UPLIFT_REST_BASE_URL: 'https://api.example.com/',
  UPLIFT_STREAM_BASE_URL: 'https://api.example.com/events',
  UPLIFT_REMOTE_HOME_URL: 'https://home.app.example.com/remoteEntry.js',
  UPLIFT_REMOTE_ANALYTICS_URL: 'https://analytics.app.example.com/remoteEntry.js',
  UPLIFT_REMOTE_CONNECTIONS_URL: 'https://connections.app.example.com/remoteEntry.js',
  UPLIFT_REMOTE_ACCOUNT_URL: 'https://account.app.example.com/remoteEntry.js',
});

/** The local stack's settings (deploy/local: devstack). */
const local = runtimeEnv({
  UPLIFT_LOCAL: 'true',
  UPLIFT_AUTH_EMULATOR_URL: 'http://127.0.0.1:9099',
  UPLIFT_FIREBASE_PROJECT_ID: 'demo-uplift',
});

/** directive name → its sources. */
function directives(policy) {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  it('allows exactly the production origins', () => {
    expect(contentSecurityPolicy(production)).toBe(
      [
        "default-src 'self'",
        "script-src 'self' https://home.app.example.com https://analytics.app.example.com https://connections.app.example.com https://account.app.example.com https://apis.google.com https://widget.intercom.io https://js.intercomcdn.com https://www.googletagmanager.com",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: https://*.googleusercontent.com https://*.intercomcdn.com https://*.intercomassets.com https://*.intercomusercontent.com https://*.google-analytics.com https://*.googletagmanager.com",
        "font-src 'self' https://*.intercomcdn.com",
        "connect-src 'self' https://api.example.com https://identitytoolkit.googleapis.com https://securetoken.googleapis.com https://*.intercom.io wss://*.intercom.io https://*.intercomcdn.com https://*.intercomusercontent.com https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com",
        'frame-src https://your-firebase-project.firebaseapp.com https://accounts.google.com https://intercom-sheets.com',
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
  });

  it('never allows eval or inline script', () => {
    for (const env of [production, local, {}]) {
      const policy = directives(contentSecurityPolicy(env));
      expect(policy['script-src']).not.toContain("'unsafe-eval'");
      expect(policy['script-src']).not.toContain("'unsafe-inline'");
      expect(policy['frame-ancestors']).toEqual(["'none'"]);
      expect(policy['object-src']).toEqual(["'none'"]);
    }
  });

  it('outside local mode never allows a localhost remote: a missing remote URL adds no origin', () => {
    const { remoteAnalyticsUrl: _missing, ...withoutAnalytics } = production;
    const scripts = directives(contentSecurityPolicy(withoutAnalytics))['script-src'];
    expect(scripts).not.toContain('https://analytics.app.example.com');
    expect(scripts.filter((source) => source.includes('localhost'))).toEqual([]);
    expect(scripts).toContain('https://home.app.example.com');
  });

  it('locally allows the gateway, the remotes on localhost and the Auth emulator', () => {
    const policy = directives(contentSecurityPolicy(local));
    expect(policy['script-src']).toEqual([
      "'self'",
      'http://localhost:3001',
      'http://localhost:3002',
      'http://localhost:3003',
      'http://localhost:3004',
      'https://apis.google.com',
      'https://widget.intercom.io',
      'https://js.intercomcdn.com',
      'https://www.googletagmanager.com',
      // Locally the optional widgets are on, with fake settings.
      'https://widget.trustpilot.com',
      'https://js.stripe.com',
    ]);
    expect(policy['connect-src'].slice(0, 5)).toEqual([
      "'self'",
      'http://localhost:8080',
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'http://127.0.0.1:9099',
    ]);
    expect(policy['frame-src']).toEqual([
      'https://demo-uplift.firebaseapp.com',
      'https://accounts.google.com',
      'http://127.0.0.1:9099',
      'https://intercom-sheets.com',
      'https://widget.trustpilot.com',
      'https://js.stripe.com',
      'https://verify.stripe.com',
    ]);
  });

  it('derives the API and stream origins from the domains, and adds the token sync endpoint', () => {
    const policy = directives(
      contentSecurityPolicy({
        apiDomain: 'api.shop.test',
        streamDomain: 'stream.shop.test',
        tokenSyncUrl: 'https://sync.shop.test/session',
      }),
    );
    expect(policy['connect-src']).toEqual(
      expect.arrayContaining(['https://api.shop.test', 'https://stream.shop.test', 'https://sync.shop.test']),
    );
  });

  it('allows the reviews and identity widgets only when their settings are set', () => {
    const without = directives(contentSecurityPolicy(production));
    expect(without['script-src']).not.toContain('https://widget.trustpilot.com');
    expect(without['script-src']).not.toContain('https://js.stripe.com');
    const withWidgets = directives(
      contentSecurityPolicy({
        ...production,
        reviewsBusinessUnitId: 'demo-unit',
        reviewsTemplateId: 'demo-template',
        stripePublishableKey: 'pk_test_demo',
      }),
    );
    expect(withWidgets['script-src']).toEqual(expect.arrayContaining(['https://widget.trustpilot.com', 'https://js.stripe.com']));
    expect(withWidgets['frame-src']).toEqual(expect.arrayContaining(['https://widget.trustpilot.com', 'https://js.stripe.com']));
    expect(withWidgets['connect-src']).toContain('https://api.stripe.com');
  });

  it('ignores configured URLs that are not http(s)', () => {
    const policy = contentSecurityPolicy({ ...production, tokenSyncUrl: "javascript:alert('x')", remoteHomeUrl: 'not a url' });
    expect(policy).not.toContain('javascript');
    expect(policy).not.toContain('not a url');
  });
});

// Compressible and over the size below which nothing is compressed.
const CHUNK = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i % 37}`))};\n`;

/** A GET that leaves the body encoded (fetch would decode it): status, headers, raw bytes. */
function rawGet(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*;q=0')).toBe('identity');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('')).toBe('identity');
    expect(pickEncoding(undefined)).toBe('identity');
  });
});

describe('cacheControlFor', () => {
  it('is immutable only for content-hashed chunk names', () => {
    expect(cacheControlFor('/dist/main.0123abcd.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/dist/842.9f8e7d6c.js')).toBe('public, max-age=31536000, immutable');
    for (const file of ['/dist/index.html', '/dist/remoteEntry.js', '/dist/main.js', '/dist/main.0123ABCZ.js', '/dist/logo.svg']) {
      expect(cacheControlFor(file), file).toBe('no-cache');
    }
  });
});

describe('etagMatches', () => {
  it('matches a listed tag, a weak form of it, or *', () => {
    expect(etagMatches('"a", "b-br"', '"b-br"')).toBe(true);
    expect(etagMatches('W/"b-br"', '"b-br"')).toBe(true);
    expect(etagMatches('*', '"x"')).toBe(true);
    expect(etagMatches('"b"', '"b-br"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});

describe('serve.mjs', () => {
  let dist;
  let servers = [];

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'uplift-serve-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Uplift</title>');
    await writeFile(path.join(dist, 'main.0123abcd.js'), 'console.log(1);\n');
    await writeFile(path.join(dist, 'main.0123abcd.js.map'), '{"version":3,"sources":["secret.ts"]}');
    await writeFile(path.join(dist, 'vendor.89abcdef.js'), CHUNK);
    await writeFile(path.join(dist, 'remoteEntry.js'), CHUNK);
  });

  afterAll(async () => {
    await Promise.all(
      servers.map((server) => {
        const closed = new Promise((resolve) => server.close(resolve));
        server.closeAllConnections();
        return closed;
      }),
    );
    await rm(dist, { recursive: true, force: true });
  });

  /** Starts one app's handler on a random port and returns its base URL. */
  async function start(app, env) {
    const server = http.createServer(createHandler(app, { env, dist }));
    servers.push(server);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${server.address().port}`;
  }

  it('sends the security headers on every response', async () => {
    const base = await start({ name: 'shell', spa: true }, production);
    const expected = securityHeaders(production);
    for (const [pathname, status] of [
      ['/', 200],
      ['/analytics/overview', 200],
      ['/env.js', 200],
      ['/main.0123abcd.js', 200],
      ['/missing.js', 404],
    ]) {
      const response = await fetch(base + pathname);
      expect(response.status, pathname).toBe(status);
      expect(response.headers.get('content-security-policy'), pathname).toBe(expected['Content-Security-Policy']);
      expect(response.headers.get('x-frame-options'), pathname).toBe('DENY');
      expect(response.headers.get('x-content-type-options'), pathname).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), pathname).toBe('strict-origin-when-cross-origin');
    }
    const post = await fetch(base + '/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('x-frame-options')).toBe('DENY');
  });

  it('a remote keeps CORS open for its remoteEntry.js and sends the headers too', async () => {
    const base = await start({ name: 'home' }, production);
    const response = await fetch(base + '/main.0123abcd.js');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('does not serve source maps outside local mode', async () => {
    const base = await start({ name: 'shell', spa: true }, production);
    for (const pathname of ['/main.0123abcd.js.map', '/main.0123abcd.js.map/', '/main.0123abcd.js%2Emap']) {
      const response = await fetch(base + pathname);
      expect(response.status, pathname).toBe(404);
      expect(await response.text(), pathname).not.toContain('secret.ts');
    }
    const localBase = await start({ name: 'shell', spa: true }, local);
    expect((await fetch(localBase + '/main.0123abcd.js.map')).status).toBe(200);
  });

  it('sends brotli or gzip as asked, with Vary, and the bytes decode to the file', async () => {
    const base = await start({ name: 'home' }, production);
    const br = await rawGet(base + '/vendor.89abcdef.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(CHUNK.length / 3);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(CHUNK);

    const gz = await rawGet(base + '/vendor.89abcdef.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(CHUNK);

    const plain = await rawGet(base + '/vendor.89abcdef.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(CHUNK);
    // One ETag per representation, so a cache never serves brotli to a client that asked for gzip.
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);

    // Too small to gain from compression: sent as it is.
    const tiny = await rawGet(base + '/main.0123abcd.js', { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('console.log(1);\n');
  });

  it('answers 304 to a matching If-None-Match, and 200 once the file changed', async () => {
    const base = await start({ name: 'shell', spa: true }, production);
    const first = await rawGet(base + '/remoteEntry.js', { 'accept-encoding': 'br' });
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    const again = await rawGet(base + '/remoteEntry.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    // Another encoding's tag does not match this representation.
    const gz = await rawGet(base + '/remoteEntry.js', { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag });
    expect(gz.status).toBe(200);

    for (const pathname of ['/', '/env.js']) {
      const page = await rawGet(base + pathname);
      expect(page.headers['cache-control'], pathname).toBe('no-cache');
      const revalidated = await rawGet(base + pathname, { 'if-none-match': page.headers.etag });
      expect(revalidated.status, pathname).toBe(304);
    }

    const changed = CHUNK.replace('word1', 'wordX');
    await writeFile(path.join(dist, 'remoteEntry.js'), changed);
    const later = new Date(Date.now() + 5000);
    await utimes(path.join(dist, 'remoteEntry.js'), later, later);
    const after = await rawGet(base + '/remoteEntry.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag });
    expect(after.status).toBe(200);
    expect(zlib.brotliDecompressSync(after.body).toString()).toBe(changed);
    await writeFile(path.join(dist, 'remoteEntry.js'), CHUNK);
  });

  it('caches hashed chunks for a year and everything else not without asking', async () => {
    const base = await start({ name: 'shell', spa: true }, production);
    const hashed = await rawGet(base + '/vendor.89abcdef.js');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const pathname of ['/', '/analytics', '/remoteEntry.js', '/env.js']) {
      expect((await rawGet(base + pathname)).headers['cache-control'], pathname).toBe('no-cache');
    }
  });

  it('HEAD sends the headers of GET and no body', async () => {
    const base = await start({ name: 'home' }, production);
    const head = await fetch(base + '/vendor.89abcdef.js', { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toMatch(/-br"$/);
    expect(await head.text()).toBe('');
  });
});
