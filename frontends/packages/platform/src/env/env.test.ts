import { afterEach, describe, expect, it, vi } from 'vitest';
import { INVALID_ENV_MESSAGE, parseEnv, SERVER_ONLY_SETTING_MESSAGE, SERVER_ONLY_SETTINGS, type RawEnv } from './env';

const complete: RawEnv = {
  firebaseApiKey: 'key',
  firebaseProjectId: 'demo-uplift',
  firebaseAppId: 'app',
  firebaseMeasurementId: 'measurement',
  apiDomain: 'api.example.com',
  streamDomain: 'stream.example.com',
  restBaseUrl: 'https://api.example.com/',
  streamBaseUrl: 'https://stream.example.com/',
  stripeConnectClientId: 'stripe',
  chatAppId: 'chat',
  publicCategoryId: 'public',
};

const REQUIRED = Object.keys(complete);

/** Required as well outside local mode (not among the spec's eleven). */
const remotes: RawEnv = {
  remoteHomeUrl: 'https://home.example.com/remoteEntry.js',
  remoteAnalyticsUrl: 'https://analytics.example.com/remoteEntry.js',
  remoteConnectionsUrl: 'https://connections.example.com/remoteEntry.js',
  remoteAccountUrl: 'https://account.example.com/remoteEntry.js',
};
const deployed: RawEnv = { ...complete, ...remotes };

function failingFields(raw: RawEnv): string {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  expect(() => parseEnv(raw)).toThrow(INVALID_ENV_MESSAGE);
  expect(error).toHaveBeenCalledTimes(1);
  return error.mock.calls[0]!.join(' ');
}

describe('parseEnv', () => {
  afterEach(() => vi.restoreAllMocks());

  it('accepts a complete configuration', () => {
    const env = parseEnv(deployed);
    expect(env.firebaseProjectId).toBe('demo-uplift');
    expect(env.restBaseUrl).toBe('https://api.example.com/');
    expect(env.local).toBe(false);
    expect(env.remotes).toEqual({
      home: 'https://home.example.com/remoteEntry.js',
      analytics: 'https://analytics.example.com/remoteEntry.js',
      connections: 'https://connections.example.com/remoteEntry.js',
      account: 'https://account.example.com/remoteEntry.js',
    });
  });

  it('has eleven required settings', () => {
    expect(REQUIRED).toHaveLength(11);
  });

  it.each(REQUIRED.filter((key) => key !== 'restBaseUrl' && key !== 'streamBaseUrl'))(
    'rejects a configuration without %s and names it',
    (key) => {
      const raw = { ...complete, [key]: undefined };
      const logged = failingFields(raw);
      expect(logged).toContain(key);
    },
  );

  it.each(Object.keys(remotes))('outside local mode rejects a configuration without %s rather than use localhost', (key) => {
    const logged = failingFields({ ...deployed, [key]: '' });
    expect(logged).toContain(key);
    for (const other of Object.keys(remotes).filter((name) => name !== key)) expect(logged).not.toContain(other);
  });

  it('locally finds the remotes on their default ports unless told', () => {
    const env = parseEnv({ ...complete, local: 'true', remoteAnalyticsUrl: 'http://127.0.0.1:3042/remoteEntry.js' });
    expect(env.remotes).toEqual({
      home: 'http://localhost:3001/remoteEntry.js',
      analytics: 'http://127.0.0.1:3042/remoteEntry.js',
      connections: 'http://localhost:3003/remoteEntry.js',
      account: 'http://localhost:3004/remoteEntry.js',
    });
  });

  it('treats an empty string as missing', () => {
    const logged = failingFields({ ...complete, chatAppId: '' });
    expect(logged).toContain('chatAppId');
  });

  it('refuses a setting that is not text, and keeps only the settings it knows', () => {
    // /env.js is JSON written by the server; a number there is a deployment mistake.
    expect(failingFields({ ...complete, chatAppId: 42 as unknown as string })).toContain('chatAppId');
    const env = parseEnv({ ...deployed, somethingElse: 'x' });
    expect(Object.keys({ ...env })).not.toContain('somethingElse');
  });

  it('lists every failing field at once', () => {
    const logged = failingFields({});
    // Without domains or the local flag the base URLs cannot be derived either.
    for (const key of REQUIRED) expect(logged).toContain(key);
  });

  it('derives the base URLs from the domains when not set', () => {
    const env = parseEnv({ ...deployed, restBaseUrl: '', streamBaseUrl: undefined });
    expect(env.restBaseUrl).toBe('https://api.example.com/');
    expect(env.streamBaseUrl).toBe('https://stream.example.com/');
  });

  it('points the base URLs at the local gateway when the local flag is set', () => {
    const env = parseEnv({ ...complete, local: 'true', restBaseUrl: '', streamBaseUrl: '' });
    expect(env.local).toBe(true);
    expect(env.restBaseUrl).toBe('http://localhost:8080/');
    expect(env.streamBaseUrl).toBe('http://localhost:8080/events');
  });

  it('skips validation when asked to', () => {
    const error = vi.spyOn(console, 'error');
    const env = parseEnv({ skipEnvValidation: 'true' });
    expect(env.firebaseApiKey).toBeUndefined();
    expect(error).not.toHaveBeenCalled();
  });

  it('only skips validation for the exact value true', () => {
    failingFields({ skipEnvValidation: '1' });
  });

  it('reads the optional settings', () => {
    const env = parseEnv({
      ...deployed,
      authEmulatorUrl: 'http://127.0.0.1:9099',
      marketingUrl: 'https://example.com',
    });
    expect(env.authEmulatorUrl).toBe('http://127.0.0.1:9099');
    expect(env.marketingUrl).toBe('https://example.com');
    expect(env.supportUrl).toBe('mailto:support@uplift.dev');
    expect(parseEnv({ ...deployed, supportUrl: 'https://help.example.com' }).supportUrl).toBe('https://help.example.com');
  });

  it('throws when client code reads a server-only setting, even if one was passed in (spec section 5)', () => {
    const env = parseEnv({ ...deployed, stripeSecretKey: 'sk_live_should_never_be_here' }) as unknown as Record<string, unknown>;
    for (const name of SERVER_ONLY_SETTINGS) {
      expect(() => env[name]).toThrow(`${SERVER_ONLY_SETTING_MESSAGE}: ${name}`);
    }
    // The client's own settings read as before, and copying the settings never reads a secret.
    expect(env.chatAppId).toBe('chat');
    expect(Object.keys({ ...env })).not.toContain('stripeSecretKey');
    const unvalidated = parseEnv({ skipEnvValidation: 'true', stripeSecretKey: 'sk_live_x' });
    expect(Object.keys({ ...unvalidated })).not.toContain('stripeSecretKey');
    expect(() => (unvalidated as unknown as Record<string, unknown>).stripeSecretKey).toThrow(SERVER_ONLY_SETTING_MESSAGE);
  });
});
