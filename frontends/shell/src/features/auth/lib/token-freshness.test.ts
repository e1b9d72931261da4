import { describe, expect, it } from 'vitest';
import { mustRefreshKeptToken, rolesOutOfStep } from './token-freshness';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const kept = (secondsAgo: number, claims: Record<string, unknown> = {}) => ({
  issuedAtTime: new Date(NOW - secondsAgo * 1000).toUTCString(),
  claims,
});

describe('mustRefreshKeptToken', () => {
  it('keeps a token whose claims still hold, however old, when nothing is synced', () => {
    expect(mustRefreshKeptToken(kept(3000), { emailVerified: false }, undefined, NOW)).toBe(false);
    expect(mustRefreshKeptToken(kept(3000, { email_verified: true }), { emailVerified: true }, undefined, NOW)).toBe(false);
  });

  it('refreshes when the email was verified after the token was issued', () => {
    expect(mustRefreshKeptToken(kept(10, { email_verified: false }), { emailVerified: true }, undefined, NOW)).toBe(true);
  });

  it('refreshes for the sync only a token older than the sync accepts', () => {
    expect(mustRefreshKeptToken(kept(300), { emailVerified: false }, 'https://sync.test/s', NOW)).toBe(false);
    expect(mustRefreshKeptToken(kept(301), { emailVerified: false }, 'https://sync.test/s', NOW)).toBe(true);
  });
});

describe('rolesOutOfStep', () => {
  it('is true only when the stored flag and the claim differ', () => {
    expect(rolesOutOfStep({}, { isUplifter: false })).toBe(false);
    expect(rolesOutOfStep({ uplifter: true }, { isUplifter: true })).toBe(false);
    expect(rolesOutOfStep({}, { isUplifter: true })).toBe(true);
    expect(rolesOutOfStep({ uplifter: true }, {})).toBe(true);
  });
});
