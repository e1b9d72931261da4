import { TOKEN_SYNC_MAX_AGE_SECONDS } from '@uplift/platform';
import { tokenAgeSeconds } from './token-sync';

/** The parts of Firebase's IdTokenResult read here. */
export interface KeptToken {
  issuedAtTime: string;
  claims: Record<string, unknown>;
}

/**
 * Whether the ID token Firebase kept from the last visit must be replaced
 * before the first API call. A forced refresh is a round trip to Firebase
 * ahead of every request the page makes, so it is asked for only when the
 * kept token would be wrong for its use:
 * - the email was verified since the token was issued: Firebase reloads the
 *   account on start, so `emailVerified` is current, while the services act
 *   on the token's email_verified claim;
 * - a token sync URL is set and the token is older than the sync accepts.
 * A role granted or revoked since is caught against the stored user
 * (rolesOutOfStep), once the page has it.
 */
export function mustRefreshKeptToken(
  token: KeptToken,
  user: { emailVerified: boolean },
  tokenSyncUrl: string | undefined,
  now: number = Date.now(),
): boolean {
  if (user.emailVerified && token.claims.email_verified !== true) return true;
  return Boolean(tokenSyncUrl) && tokenAgeSeconds(token.issuedAtTime, now) > TOKEN_SYNC_MAX_AGE_SECONDS;
}

/**
 * Whether the stored uplifter flag and the token's uplifter claim disagree:
 * usersctl sets both, so a difference means the role changed after the
 * token was issued and the services would still judge by the old one.
 */
export function rolesOutOfStep(claims: Record<string, unknown>, stored: { isUplifter?: boolean }): boolean {
  return (claims.uplifter === true) !== Boolean(stored.isUplifter);
}
