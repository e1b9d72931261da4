import { http } from '../http/client';

/**
 * The spec's secure refresh-token cookie (section 3), set by the gateway so
 * that it is HttpOnly: a cookie written from script cannot be, and any
 * script on the page could read the token. Nothing reads it on the server;
 * the spec asks for it, so it is kept, out of scripts' reach (gateway
 * session.go). The answers carry the cookie, hence credentials.
 */
const PATH = 'session/refreshToken';

/** PUT session/refreshToken: the gateway sets the cookie to refreshToken. */
export function keepRefreshToken(refreshToken: string): Promise<void> {
  return http.put<void>(PATH, { refreshToken }, { credentials: 'include' });
}

/** DELETE session/refreshToken: the gateway clears the cookie. */
export function dropRefreshToken(): Promise<void> {
  return http.delete<void>(PATH, { credentials: 'include' });
}
