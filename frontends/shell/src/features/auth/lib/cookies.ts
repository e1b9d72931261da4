import { dropRefreshToken, keepRefreshToken } from '@uplift/platform';

/**
 * The secure refresh-token cookie of spec section 3: set on sign-in (and
 * when Firebase renews the token), cleared on sign-out. The gateway sets
 * it, HttpOnly, Secure and SameSite=Strict, so no script on the page can
 * read it; the page only hands the token over. Best-effort: a failure is
 * logged and never stops a sign-in or sign-out.
 */
export function setRefreshTokenCookie(refreshToken: string): void {
  if (!refreshToken) return;
  keepRefreshToken(refreshToken).catch((error: unknown) => console.warn('Could not set the refresh-token cookie', error));
}

/** Drops the refresh-token cookie on sign-out. */
export function clearRefreshTokenCookie(): void {
  dropRefreshToken().catch((error: unknown) => console.warn('Could not clear the refresh-token cookie', error));
}
