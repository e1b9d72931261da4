import { STORAGE_KEYS } from '@uplift/platform';

/** Drops the refresh-token cookie on sign-out. */
export function clearRefreshTokenCookie(): void {
  document.cookie = `${STORAGE_KEYS.refreshTokenCookie}=; Max-Age=0; path=/; secure; samesite=strict`;
}
