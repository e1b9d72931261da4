import { STORAGE_KEYS } from '@uplift/platform';

/**
 * The secure refresh-token cookie of spec section 3. Secure (HTTPS, and
 * localhost, which browsers treat as secure) and SameSite=Strict, so it is
 * never sent by another site's page; path / so every route sees it.
 */
const ATTRIBUTES = 'path=/; secure; samesite=strict';

/** How long the cookie lives without a new sign-in: 30 days, in seconds. */
export const REFRESH_TOKEN_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

/** Stores the signed-in user's refresh token on sign-in (and when Firebase renews it). */
export function setRefreshTokenCookie(refreshToken: string): void {
  if (!refreshToken) return;
  document.cookie = `${STORAGE_KEYS.refreshTokenCookie}=${encodeURIComponent(refreshToken)}; Max-Age=${REFRESH_TOKEN_COOKIE_MAX_AGE}; ${ATTRIBUTES}`;
}

/** Drops the refresh-token cookie on sign-out. */
export function clearRefreshTokenCookie(): void {
  document.cookie = `${STORAGE_KEYS.refreshTokenCookie}=; Max-Age=0; ${ATTRIBUTES}`;
}
