// @vitest-environment node
// The web's security headers: the policy built from the configuration, and
// what a real request to serve.mjs's handler gets back.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders } from './security-headers.mjs';
import { createHandler, runtimeEnv } from './serve.mjs';

/** The production settings of deploy/k8s/config.yaml (uplift-web-config), as /env.js carries them. */
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
      contentSecurityPolicy({ ...production, reviewsBusinessUnitId: 'demo-unit', stripePublishableKey: 'pk_test_demo' }),
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

describe('serve.mjs', () => {
  let dist;
  let servers = [];

  beforeAll(async () => {
    dist = await mkdtemp(path.join(os.tmpdir(), 'uplift-serve-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Uplift</title>');
    await writeFile(path.join(dist, 'main.0123abcd.js'), 'console.log(1);\n');
    await writeFile(path.join(dist, 'main.0123abcd.js.map'), '{"version":3,"sources":["secret.ts"]}');
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
});
