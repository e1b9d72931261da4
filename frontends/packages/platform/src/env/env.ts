import { DEFAULT_SUPPORT_URL, LOCAL_API_PORT } from '../constants';

/**
 * Runtime configuration. The server writes it to `window.__UPLIFT_ENV__`
 * (`/env.js`) so one build runs in every environment.
 */
export type RawEnv = Partial<Record<string, string>>;

/**
 * The spec's eleven required client settings; empty counts as missing.
 * Checked by hand: a schema library here would be in every first load for
 * eleven non-empty strings (zod's was, and cost the budget).
 */
const REQUIRED_KEYS = [
  'firebaseApiKey',
  'firebaseProjectId',
  'firebaseAppId',
  'firebaseMeasurementId',
  'apiDomain',
  'streamDomain',
  'restBaseUrl',
  'streamBaseUrl',
  'stripeConnectClientId',
  'chatAppId',
  'publicCategoryId',
] as const;

export type RequiredEnv = Record<(typeof REQUIRED_KEYS)[number], string>;

export type RemoteName = 'home' | 'analytics' | 'connections' | 'account';

/** Each remote's remoteEntry.js setting (`UPLIFT_REMOTE_*_URL`). */
const REMOTE_SETTINGS = {
  home: 'remoteHomeUrl',
  analytics: 'remoteAnalyticsUrl',
  connections: 'remoteConnectionsUrl',
  account: 'remoteAccountUrl',
} as const satisfies Record<RemoteName, string>;

/**
 * Outside local mode the remote URLs are required too: a deployment that
 * forgot one would otherwise load that remote from the visitor's own localhost.
 */
const DEPLOYED_REQUIRED_KEYS = [...REQUIRED_KEYS, ...Object.values(REMOTE_SETTINGS)];

export interface Env extends RequiredEnv {
  local: boolean;
  authEmulatorUrl?: string;
  /** Optional: where the ID token is synced (POST signed in, DELETE signed out). */
  tokenSyncUrl?: string;
  marketingUrl: string;
  /** Where 'Contact us' points (a mailto: or a help page). */
  supportUrl: string;
  /** Optional: the customer reviews widget (Trustpilot TrustBox); shown only with both. */
  reviewsBusinessUnitId?: string;
  reviewsTemplateId?: string;
  /** Optional: Stripe's publishable key, for the identity verification widget. */
  stripePublishableKey?: string;
  remotes: Record<RemoteName, string>;
}

export const INVALID_ENV_MESSAGE = 'Invalid environment variables';

/**
 * Settings only the servers hold (secrets). They are never sent to the
 * browser; reading one in client code is a bug, and it throws at once rather
 * than quietly reading undefined (spec section 5).
 */
export const SERVER_ONLY_SETTINGS = [
  'stripeSecretKey',
  'stripeWebhookSecret',
  'firebaseServiceAccount',
  'llmApiKey',
  'shopifyApiSecret',
  'unsubscribeSecret',
] as const;

export const SERVER_ONLY_SETTING_MESSAGE = '❌ Attempted to access a server-side environment variable on the client';

/** Wraps the client's settings so a server-only one cannot be read. */
function guardServerOnly<T extends object>(env: T): T {
  const serverOnly = new Set<string>(SERVER_ONLY_SETTINGS);
  // Never kept, even when validation is skipped and raw settings pass through.
  const clean = Object.fromEntries(Object.entries(env).filter(([key]) => !serverOnly.has(key))) as T;
  return new Proxy(clean, {
    get(target, property, receiver) {
      if (typeof property === 'string' && serverOnly.has(property)) {
        throw new Error(`${SERVER_ONLY_SETTING_MESSAGE}: ${property}`);
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

const REMOTE_PORTS: Record<RemoteName, number> = {
  home: 3001,
  analytics: 3002,
  connections: 3003,
  account: 3004,
};

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;

/**
 * Fills the base URLs the spec derives from the local flag or the domains,
 * and locally the remotes' default ports.
 */
function withDefaults(raw: RawEnv): RawEnv {
  const local = raw.local === 'true';
  const apiDomain = nonEmpty(raw.apiDomain);
  const streamDomain = nonEmpty(raw.streamDomain);
  const localRest = `http://localhost:${LOCAL_API_PORT}/`;
  const remotes = local
    ? Object.fromEntries(
        Object.entries(REMOTE_SETTINGS).map(([name, key]) => [
          key,
          nonEmpty(raw[key]) ?? `http://localhost:${REMOTE_PORTS[name as RemoteName]}/remoteEntry.js`,
        ]),
      )
    : {};
  return {
    ...raw,
    ...remotes,
    restBaseUrl:
      nonEmpty(raw.restBaseUrl) ??
      (local ? localRest : apiDomain && `https://${apiDomain}/`),
    streamBaseUrl:
      nonEmpty(raw.streamBaseUrl) ??
      (local ? `${localRest}events` : streamDomain && `https://${streamDomain}/`),
  };
}

/**
 * Validates the runtime configuration. Logs every failing field and throws
 * 'Invalid environment variables' so the app refuses to start half-configured.
 */
export function parseEnv(raw: RawEnv): Env {
  const filled = withDefaults(raw);
  const local = raw.local === 'true';
  let requiredEnv: RequiredEnv;
  if (raw.skipEnvValidation === 'true') {
    // Escape hatch for builds and tools that run without real settings.
    requiredEnv = filled as RequiredEnv;
  } else {
    const failing = (local ? REQUIRED_KEYS : DEPLOYED_REQUIRED_KEYS).filter((key) => {
      const value: unknown = filled[key];
      return typeof value !== 'string' || value === '';
    });
    if (failing.length > 0) {
      console.error(`❌ ${INVALID_ENV_MESSAGE}:`, failing.join(', '));
      throw new Error(INVALID_ENV_MESSAGE);
    }
    // Only the required settings, as validated; the rest are read one by one below.
    requiredEnv = Object.fromEntries(REQUIRED_KEYS.map((key) => [key, filled[key]])) as RequiredEnv;
  }
  // Checked above (or the check skipped on purpose).
  const remote = (name: RemoteName) => filled[REMOTE_SETTINGS[name]] as string;
  return guardServerOnly({
    ...requiredEnv,
    local,
    authEmulatorUrl: nonEmpty(raw.authEmulatorUrl),
    tokenSyncUrl: nonEmpty(raw.tokenSyncUrl),
    marketingUrl: nonEmpty(raw.marketingUrl) ?? '/',
    supportUrl: nonEmpty(raw.supportUrl) ?? DEFAULT_SUPPORT_URL,
    reviewsBusinessUnitId: nonEmpty(raw.reviewsBusinessUnitId),
    reviewsTemplateId: nonEmpty(raw.reviewsTemplateId),
    stripePublishableKey: nonEmpty(raw.stripePublishableKey),
    remotes: {
      home: remote('home'),
      analytics: remote('analytics'),
      connections: remote('connections'),
      account: remote('account'),
    },
  });
}

declare global {
  interface Window {
    __UPLIFT_ENV__?: RawEnv;
  }
}

/** Reads and validates the configuration the server injected into the page. */
export function readBrowserEnv(): Env {
  return parseEnv(window.__UPLIFT_ENV__ ?? {});
}
