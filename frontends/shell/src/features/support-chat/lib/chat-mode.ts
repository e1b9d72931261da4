import type { Session } from '@uplift/platform';

/**
 * Who the support chat talks to (spec sections 2 and 4): the signed-in user by
 * name and email; an anonymous visitor who arrived with `?email=` on a
 * website-score or marketing page; otherwise nobody (the chat is shut down).
 */
export type ChatMode =
  | { kind: 'user'; name: string; email: string }
  | { kind: 'anonymous'; email: string }
  | { kind: 'off' };

/** Paths whose visitors may chat anonymously (spec section 2). */
const ANONYMOUS_PATH_PARTS = ['website-score', 'marketing'];

/** The chat's mode for this session and address; null while auth state is unknown. */
export function chatModeFor(session: Session, pathname: string, search: string): ChatMode | null {
  if (session.status === 'unknown') return null;
  if (session.status === 'signedIn') {
    const email = session.user.email ?? '';
    // Users signed up with email only have no display name: the part before @ is the name sign-up stored.
    const name = session.user.displayName || email.split('@')[0] || '';
    return { kind: 'user', name, email };
  }
  const email = new URLSearchParams(search).get('email')?.trim();
  if (email && ANONYMOUS_PATH_PARTS.some((part) => pathname.includes(part))) return { kind: 'anonymous', email };
  return { kind: 'off' };
}
