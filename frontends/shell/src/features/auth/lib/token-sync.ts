import { TOKEN_SYNC_MAX_AGE_SECONDS } from '@uplift/platform';

/** Seconds since the token was issued, from Firebase's `issuedAtTime` (a date string). */
export function tokenAgeSeconds(issuedAtTime: string, now: number = Date.now()): number {
  return (now - new Date(issuedAtTime).getTime()) / 1000;
}

/**
 * Optional token sync (spec section 4): tells the configured endpoint about
 * the session. Signed in, it POSTs the ID token as a bearer, but only a fresh
 * one (at most TOKEN_SYNC_MAX_AGE_SECONDS old) so a replayed old token is
 * never sent; signed out, it DELETEs. Best-effort: failures are only logged.
 */
export async function syncToken(
  url: string | undefined,
  token: { value: string; issuedAtTime: string } | null,
  now: number = Date.now(),
): Promise<void> {
  if (!url) return;
  let init: RequestInit;
  if (token) {
    if (tokenAgeSeconds(token.issuedAtTime, now) > TOKEN_SYNC_MAX_AGE_SECONDS) return;
    init = { method: 'POST', headers: { Authorization: `Bearer ${token.value}` } };
  } else {
    init = { method: 'DELETE' };
  }
  try {
    // With cookies: the sync endpoint typically keeps the session in one.
    const response = await fetch(url, { ...init, credentials: 'include' });
    if (!response.ok) console.warn(`Token sync answered ${response.status}`);
  } catch (error) {
    console.warn('Token sync failed', error);
  }
}
