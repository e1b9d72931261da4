// Serves the built apps without dependencies: the shell on WEB_PORT (SPA
// fallback and /env.js with the runtime configuration) and each remote on its
// own port with CORS open, so the shell can load remoteEntry.js at run time.
// Every response carries the security headers (security-headers.mjs); source
// maps are served only in local mode.
import { createReadStream, realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { securityHeaders } from './security-headers.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const host = process.env.HOST || '127.0.0.1';
const webPort = Number(process.env.WEB_PORT || 3000);

// The remotes sit on the ports after the shell's (3001–3004 by default), so a
// stack on other ports (UPLIFT_PORT_OFFSET) moves them along.
const apps = [
  { name: 'shell', port: webPort, spa: true },
  { name: 'home', port: webPort + 1 },
  { name: 'analytics', port: webPort + 2 },
  { name: 'connections', port: webPort + 3 },
  { name: 'account', port: webPort + 4 },
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

// Environment variable → key in window.__UPLIFT_ENV__.
const ENV_KEYS = {
  UPLIFT_FIREBASE_API_KEY: 'firebaseApiKey',
  UPLIFT_FIREBASE_PROJECT_ID: 'firebaseProjectId',
  UPLIFT_FIREBASE_APP_ID: 'firebaseAppId',
  UPLIFT_FIREBASE_MEASUREMENT_ID: 'firebaseMeasurementId',
  UPLIFT_API_DOMAIN: 'apiDomain',
  UPLIFT_STREAM_DOMAIN: 'streamDomain',
  UPLIFT_REST_BASE_URL: 'restBaseUrl',
  UPLIFT_STREAM_BASE_URL: 'streamBaseUrl',
  UPLIFT_STRIPE_CONNECT_CLIENT_ID: 'stripeConnectClientId',
  UPLIFT_CHAT_APP_ID: 'chatAppId',
  UPLIFT_PUBLIC_CATEGORY_ID: 'publicCategoryId',
  UPLIFT_LOCAL: 'local',
  UPLIFT_SKIP_ENV_VALIDATION: 'skipEnvValidation',
  UPLIFT_AUTH_EMULATOR_URL: 'authEmulatorUrl',
  UPLIFT_TOKEN_SYNC_URL: 'tokenSyncUrl',
  UPLIFT_REMOTE_HOME_URL: 'remoteHomeUrl',
  UPLIFT_REMOTE_ANALYTICS_URL: 'remoteAnalyticsUrl',
  UPLIFT_REMOTE_CONNECTIONS_URL: 'remoteConnectionsUrl',
  UPLIFT_REMOTE_ACCOUNT_URL: 'remoteAccountUrl',
  UPLIFT_MARKETING_URL: 'marketingUrl',
  UPLIFT_SUPPORT_URL: 'supportUrl',
};

// Obviously fake values for local runs against the emulator; never real credentials.
const LOCAL_DEFAULTS = {
  firebaseApiKey: 'demo-api-key',
  firebaseProjectId: 'demo-uplift',
  firebaseAppId: 'demo-app-id',
  firebaseMeasurementId: 'demo-measurement-id',
  apiDomain: 'localhost:8080',
  streamDomain: 'localhost:8080',
  restBaseUrl: 'http://localhost:8080/',
  streamBaseUrl: 'http://localhost:8080/events',
  stripeConnectClientId: 'demo-stripe-connect-client-id',
  chatAppId: 'demo-chat-app-id',
  publicCategoryId: 'demo-public-category-id',
};

/** window.__UPLIFT_ENV__ for the process environment given. */
export function runtimeEnv(processEnv = process.env) {
  const env = {};
  for (const [variable, key] of Object.entries(ENV_KEYS)) {
    if (processEnv[variable] !== undefined) env[key] = processEnv[variable];
  }
  if (env.local !== 'true') return env;
  const withDefaults = { ...env };
  for (const [key, value] of Object.entries(LOCAL_DEFAULTS)) {
    if (!withDefaults[key]) withDefaults[key] = value;
  }
  return withDefaults;
}

const envScriptFor = (env) => `window.__UPLIFT_ENV__ = ${JSON.stringify(env).replace(/</g, '\\u003c')};\n`;

async function fileAt(dist, urlPath) {
  const resolved = path.resolve(dist, `.${urlPath}`);
  if (resolved !== dist && !resolved.startsWith(dist + path.sep)) return null;
  try {
    const info = await stat(resolved);
    return info.isFile() ? resolved : null;
  } catch {
    return null;
  }
}

function sendFile(res, file, method) {
  const base = path.basename(file);
  // Hashed chunks never change; entry points must always be fresh.
  const cache = /\.[0-9a-f]{8}\.js(\.map)?$/.test(base) ? 'public, max-age=31536000, immutable' : 'no-cache';
  res.writeHead(200, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Cache-Control': cache,
  });
  if (method === 'HEAD') return res.end();
  createReadStream(file).pipe(res);
}

/**
 * The request handler for one app. env is the runtime configuration (read once
 * at start: the process environment does not change afterwards); dist is where
 * the app's build is (tests point it elsewhere).
 */
export function createHandler(app, { env = runtimeEnv(), dist = path.join(root, app.name, 'dist') } = {}) {
  const envScript = envScriptFor(env);
  const headers = securityHeaders(env);
  // Production builds keep their source maps hidden; only a developer's
  // machine (local mode) hands them out.
  const serveSourceMaps = env.local === 'true';
  return async (req, res) => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (!app.spa) res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' });
      return res.end();
    }
    let urlPath;
    try {
      urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400);
      return res.end();
    }
    if (app.spa && urlPath === '/env.js') {
      res.writeHead(200, { 'Content-Type': TYPES['.js'], 'Cache-Control': 'no-store' });
      return res.end(req.method === 'HEAD' ? undefined : envScript);
    }
    const file = await fileAt(dist, urlPath === '/' ? '/index.html' : urlPath);
    if (file && (serveSourceMaps || !file.endsWith('.map'))) return sendFile(res, file, req.method);
    // Client-side routes get the app; missing assets stay 404s.
    if (app.spa && !path.extname(urlPath)) {
      const index = await fileAt(dist, '/index.html');
      if (index) return sendFile(res, index, req.method);
    }
    res.writeHead(404, { 'Content-Type': TYPES['.txt'] });
    res.end('Not found\n');
  };
}

function serve() {
  const env = runtimeEnv();
  const servers = apps.map((app) => {
    const server = http.createServer(createHandler(app, { env }));
    server.listen(app.port, host, () => console.log(`${app.name}: http://${host}:${app.port}/`));
    server.on('error', (error) => {
      console.error(`${app.name}: ${error.message}`);
      process.exitCode = 1;
      shutdown();
    });
    return server;
  });

  let stopping = false;
  function shutdown() {
    if (stopping) return;
    stopping = true;
    for (const server of servers) {
      server.close();
      server.closeAllConnections();
    }
  }
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

// Run as a program (node scripts/serve.mjs); imported by tests, it only exports.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) serve();
