// The security headers every response of the web carries, built from the same
// runtime configuration /env.js gives the browser, so the Content-Security-Policy
// allows exactly the origins the app is configured to talk to.

/** Where the shell looks, in local mode only, for a remote whose URL is not configured (platform env.ts). */
const REMOTE_FALLBACKS = {
  remoteHomeUrl: 'http://localhost:3001/remoteEntry.js',
  remoteAnalyticsUrl: 'http://localhost:3002/remoteEntry.js',
  remoteConnectionsUrl: 'http://localhost:3003/remoteEntry.js',
  remoteAccountUrl: 'http://localhost:3004/remoteEntry.js',
};

/** Firebase Auth's REST endpoints (sign-in, token refresh). */
const FIREBASE_AUTH_APIS = ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'];

/** The Google sign-in popup: Firebase loads Google's gapi script, which frames the auth domain. */
const GOOGLE_SIGN_IN_SCRIPT = 'https://apis.google.com';
const GOOGLE_ACCOUNTS = 'https://accounts.google.com';

/** Google account photos (the avatar shows the user's photoURL). */
const GOOGLE_PHOTOS = 'https://*.googleusercontent.com';

/**
 * Third-party widgets, each with the origins its script needs. The support
 * chat (an Intercom Messenger) and analytics (the measurement id's gtag.js)
 * are always configured (their ids are among the eleven required settings);
 * the reviews and identity widgets only when their own setting is set.
 */
const SUPPORT_CHAT = {
  script: ['https://widget.intercom.io', 'https://js.intercomcdn.com'],
  connect: ['https://*.intercom.io', 'wss://*.intercom.io', 'https://*.intercomcdn.com', 'https://*.intercomusercontent.com'],
  img: ['https://*.intercomcdn.com', 'https://*.intercomassets.com', 'https://*.intercomusercontent.com'],
  font: ['https://*.intercomcdn.com'],
  frame: ['https://intercom-sheets.com'],
};
const ANALYTICS = {
  script: ['https://www.googletagmanager.com'],
  connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
};
/** Customer reviews: Trustpilot's TrustBox (reviewsBusinessUnitId and reviewsTemplateId). */
const REVIEWS = {
  script: ['https://widget.trustpilot.com'],
  frame: ['https://widget.trustpilot.com'],
};
/** Identity verification: Stripe.js's Identity modal (stripePublishableKey). */
const IDENTITY = {
  script: ['https://js.stripe.com'],
  connect: ['https://api.stripe.com'],
  frame: ['https://js.stripe.com', 'https://verify.stripe.com'],
};

/** The widgets the configuration env turns on. */
function widgetsFor(env) {
  return [
    SUPPORT_CHAT,
    ANALYTICS,
    nonEmpty(env.reviewsBusinessUnitId) && nonEmpty(env.reviewsTemplateId) && REVIEWS,
    nonEmpty(env.stripePublishableKey) && IDENTITY,
  ].filter(Boolean);
}

const nonEmpty = (value) => (value === undefined || value === '' ? undefined : value);

/** The origin of url, or undefined when it is missing or not an http(s) URL. */
function originOf(url) {
  if (!nonEmpty(url)) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

const unique = (values) => [...new Set(values.filter(Boolean))];

/**
 * The Content-Security-Policy for the runtime configuration env (the object
 * /env.js serves: restBaseUrl, streamBaseUrl, remote…Url, authEmulatorUrl,
 * tokenSyncUrl, firebaseProjectId, …). The base URLs fall back the way the
 * shell's env parsing does.
 *
 * - script-src: the page, each remote's origin (Module Federation loads
 *   remoteEntry.js and its chunks with script tags) and Google's gapi for the
 *   sign-in popup. No 'unsafe-inline', no 'unsafe-eval': the bundles need
 *   neither.
 * - style-src keeps 'unsafe-inline': the UI kit injects its stylesheet as a
 *   <style> element at run time (packages/platform/src/ui/styles.ts).
 * - connect-src: the REST and event-stream origins, Firebase Auth (or its
 *   emulator) and the optional token sync endpoint.
 * - frame-src: Firebase's auth iframe on the project's auth domain (or the
 *   emulator) and Google's accounts page.
 */
export function contentSecurityPolicy(env = {}) {
  const local = env.local === 'true';
  const restBaseUrl =
    nonEmpty(env.restBaseUrl) ?? (local ? 'http://localhost:8080/' : nonEmpty(env.apiDomain) && `https://${env.apiDomain}/`);
  const streamBaseUrl =
    nonEmpty(env.streamBaseUrl) ??
    (local ? 'http://localhost:8080/events' : nonEmpty(env.streamDomain) && `https://${env.streamDomain}/`);
  const remotes = Object.entries(REMOTE_FALLBACKS).map(([key, fallback]) => originOf(nonEmpty(env[key]) ?? (local ? fallback : undefined)));
  const emulator = originOf(env.authEmulatorUrl);
  const authDomain = nonEmpty(env.firebaseProjectId) && `https://${env.firebaseProjectId}.firebaseapp.com`;

  const widgets = widgetsFor(env);
  const widgetSources = (kind) => widgets.flatMap((widget) => widget[kind] ?? []);

  const directives = [
    ['default-src', ["'self'"]],
    ['script-src', unique(["'self'", ...remotes, GOOGLE_SIGN_IN_SCRIPT, ...widgetSources('script')])],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', unique(["'self'", 'data:', GOOGLE_PHOTOS, ...widgetSources('img')])],
    ['font-src', unique(["'self'", ...widgetSources('font')])],
    [
      'connect-src',
      unique(["'self'", originOf(restBaseUrl), originOf(streamBaseUrl), ...FIREBASE_AUTH_APIS, emulator, originOf(env.tokenSyncUrl), ...widgetSources('connect')]),
    ],
    ['frame-src', unique([authDomain, GOOGLE_ACCOUNTS, emulator, ...widgetSources('frame')])],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** Every header the web adds to its responses, for the configuration env. */
export function securityHeaders(env = {}) {
  return {
    'Content-Security-Policy': contentSecurityPolicy(env),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
}
