import { vi } from 'vitest';

/** A JSON answer from the gateway, for tests that fake fetch. */
export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** One route's answer; it sees the request (method, headers, body) and its URL (for the query). */
export type GatewayRoute = (init: RequestInit | undefined, url: URL) => Response | Promise<Response>;

/**
 * A fake gateway on the global `fetch` (vi.stubGlobal, so `vi.unstubAllGlobals`
 * puts the real one back): routes keyed by "METHOD /path", GET unless the
 * request says. What no route answers gets a 404 naming it, so a test that
 * asks for something unexpected fails on that and not on a missing mock.
 */
export function fakeGateway(routes: Record<string, GatewayRoute>) {
  const keyOf = (input: RequestInfo | URL, init: RequestInit | undefined) =>
    `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = keyOf(input, init);
    const route = routes[key];
    return route ? route(init, new URL(String(input))) : json({ message: `unexpected ${key}` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    /** The request inits of every call to `key` ("METHOD /path"), in order. */
    calls: (key: string) => fetchMock.mock.calls.filter(([input, init]) => keyOf(input, init) === key).map(([, init]) => init),
  };
}
