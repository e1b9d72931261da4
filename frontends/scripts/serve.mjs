// Serves the built apps without dependencies: the shell on WEB_PORT (SPA
// fallback and /env.js with the runtime configuration) and each remote on its
// own port with CORS open, so the shell can load remoteEntry.js at run time.
// Every response carries the security headers (security-headers.mjs); source
// maps are served only in local mode. Text is sent brotli- or gzip-compressed
// (compressed once per file and kept in memory) with a strong ETag, so a
// revalidation costs a 304; content-hashed chunks are cached for a year.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { securityHeaders } from './security-headers.mjs';

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

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
  UPLIFT_REVIEWS_BUSINESS_UNIT_ID: 'reviewsBusinessUnitId',
  UPLIFT_REVIEWS_TEMPLATE_ID: 'reviewsTemplateId',
  UPLIFT_STRIPE_PUBLISHABLE_KEY: 'stripePublishableKey',
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
  // The optional widgets are on locally, so a developer sees where they go
  // (offline, their scripts fail quietly and the reviews box disappears).
  reviewsBusinessUnitId: 'demo-reviews-business-unit',
  reviewsTemplateId: 'demo-reviews-template',
  stripePublishableKey: 'pk_test_demo',
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

// webpack names chunks [name].[contenthash:8].js: such a file never changes,
// so browsers may keep it for a year without asking. Everything else (HTML,
// remoteEntry.js, env.js) is revalidated on every load with its ETag.
const HASHED = /\.[0-9a-f]{8}\.(js|css)(\.map)?$/;
export const cacheControlFor = (file) =>
  HASHED.test(path.basename(file)) ? 'public, max-age=31536000, immutable' : 'no-cache';

// Not .map: source maps go out only in local mode, and compressing them (the
// largest files) at start would compete with the first visits for the CPU.
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt']);
// Below this a compressed body saves less than its headers cost.
const MIN_COMPRESS_BYTES = 1024;

/**
 * The encoding to send for an Accept-Encoding header: brotli, then gzip, or
 * identity. A coding with q=0 is refused ("br;q=0").
 */
export function pickEncoding(acceptEncoding = '') {
  const accepted = new Map();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    if (!coding) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(coding, q ? Number(q.slice(2)) : 1);
  }
  const ok = (coding) => (accepted.get(coding) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

const compressors = {
  // Quality 11 once per file (cached below) costs well under a second for our largest chunk.
  br: (body) => brotliCompress(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzip(body, { level: 9 }),
};

/**
 * Bodies and ETags per file, compressed once and kept while the file's size
 * and mtime stay the same (a rebuild replaces them). dist holds a few hundred
 * files at most; the bound only guards against a folder that is not a build.
 */
export function createFileCache({ maxEntries = 1000 } = {}) {
  const entries = new Map();
  async function load(file) {
    const info = await stat(file);
    const key = `${info.size}:${info.mtimeMs}`;
    let entry = entries.get(file);
    if (!entry || entry.key !== key) {
      const body = await readFile(file);
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
      entry = { key, body, hash, variants: new Map() };
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value);
      entries.set(file, entry);
    }
    return entry;
  }
  /** The representation of file for encoding: its body and strong ETag (one per encoding). */
  async function get(file, encoding) {
    const entry = await load(file);
    const compress = COMPRESSIBLE.has(path.extname(file)) && entry.body.length >= MIN_COMPRESS_BYTES;
    if (!compress || encoding === 'identity') return { body: entry.body, etag: `"${entry.hash}"`, encoding: 'identity', vary: compress };
    let variant = entry.variants.get(encoding);
    if (!variant) {
      variant = compressors[encoding](entry.body);
      entry.variants.set(encoding, variant);
      // A failed compression is not kept: the next request tries again.
      variant.catch(() => entry.variants.delete(encoding));
    }
    return { body: await variant, etag: `"${entry.hash}-${encoding === 'br' ? 'br' : 'gz'}"`, encoding, vary: true };
  }
  /** Compresses every compressible file under dir ahead of the first visit. */
  async function warm(dir) {
    const names = await readdir(dir, { recursive: true }).catch(() => []);
    for (const name of names) {
      const file = path.join(dir, name);
      if (!COMPRESSIBLE.has(path.extname(file))) continue;
      await get(file, 'br').catch(() => {});
      await get(file, 'gzip').catch(() => {});
    }
  }
  return { get, warm };
}

/** True when an If-None-Match header names etag (or is *). */
export function etagMatches(ifNoneMatch, etag) {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Sends body (already chosen for the request's encoding) with validators, or 304 when the client has it. */
function sendBody(req, res, { body, etag, encoding, vary }, headers) {
  const common = { ...headers, ETag: etag };
  if (vary) common.Vary = 'Accept-Encoding';
  if (etagMatches(req.headers['if-none-match'], etag)) {
    res.writeHead(304, common);
    return res.end();
  }
  if (encoding !== 'identity') common['Content-Encoding'] = encoding;
  res.writeHead(200, { ...common, 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function sendFile(req, res, file, files) {
  let representation;
  try {
    representation = await files.get(file, pickEncoding(req.headers['accept-encoding']));
  } catch {
    // Gone between the lookup and the read (a rebuild in progress).
    res.writeHead(404, { 'Content-Type': TYPES['.txt'] });
    return res.end('Not found\n');
  }
  sendBody(req, res, representation, {
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Cache-Control': cacheControlFor(file),
  });
}

/**
 * The request handler for one app. env is the runtime configuration (read once
 * at start: the process environment does not change afterwards); dist is where
 * the app's build is (tests point it elsewhere).
 */
export function createHandler(app, { env = runtimeEnv(), dist = path.join(root, app.name, 'dist'), files = createFileCache() } = {}) {
  const envBody = Buffer.from(envScriptFor(env));
  const envScript = {
    body: envBody,
    etag: `"${createHash('sha256').update(envBody).digest('base64url').slice(0, 22)}"`,
    encoding: 'identity',
    vary: false,
  };
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
      // Small and per deployment: revalidated each load, never compressed.
      return sendBody(req, res, envScript, { 'Content-Type': TYPES['.js'], 'Cache-Control': 'no-cache' });
    }
    const file = await fileAt(dist, urlPath === '/' ? '/index.html' : urlPath);
    if (file && (serveSourceMaps || !file.endsWith('.map'))) return sendFile(req, res, file, files);
    // Client-side routes get the app; missing assets stay 404s.
    if (app.spa && !path.extname(urlPath)) {
      const index = await fileAt(dist, '/index.html');
      if (index) return sendFile(req, res, index, files);
    }
    res.writeHead(404, { 'Content-Type': TYPES['.txt'] });
    res.end('Not found\n');
  };
}

function serve() {
  const env = runtimeEnv();
  const servers = apps.map((app) => {
    const files = createFileCache();
    // Compress ahead of the first visit, in the background.
    void files.warm(path.join(root, app.name, 'dist'));
    const server = http.createServer(createHandler(app, { env, files }));
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
