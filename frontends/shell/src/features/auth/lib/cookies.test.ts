import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearRefreshTokenCookie, REFRESH_TOKEN_COOKIE_MAX_AGE, setRefreshTokenCookie } from './cookies';

/** What the page writes to document.cookie (jsdom's jar would drop Secure cookies on http). */
function captureCookieWrites(): string[] {
  const writes: string[] = [];
  vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => void writes.push(value));
  return writes;
}

afterEach(() => vi.restoreAllMocks());

describe('the refresh-token cookie (spec section 3)', () => {
  it('is set secure, SameSite=Strict, for the whole site, with the token escaped', () => {
    const writes = captureCookieWrites();
    setRefreshTokenCookie('AMf-vB/x+y=z;');
    expect(writes).toEqual([
      `refresh-token=AMf-vB%2Fx%2By%3Dz%3B; Max-Age=${REFRESH_TOKEN_COOKIE_MAX_AGE}; path=/; secure; samesite=strict`,
    ]);
  });

  it('is cleared with the same attributes, so the browser drops that cookie', () => {
    const writes = captureCookieWrites();
    clearRefreshTokenCookie();
    expect(writes).toEqual(['refresh-token=; Max-Age=0; path=/; secure; samesite=strict']);
  });

  it('is not written without a token', () => {
    const writes = captureCookieWrites();
    setRefreshTokenCookie('');
    expect(writes).toEqual([]);
  });
});
