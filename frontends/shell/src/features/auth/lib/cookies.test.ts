import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { clearRefreshTokenCookie, setRefreshTokenCookie } from './cookies';

const fetchMock = vi.fn<typeof fetch>();
let cookieWrites: string[];

beforeEach(() => {
  configureHttp({ baseUrl: 'http://gw.test/' });
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
  cookieWrites = [];
  vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => void cookieWrites.push(value));
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The spec's refresh-token cookie (section 3): never written by script, so no injected script can read it. */
describe('the refresh-token cookie', () => {
  it('is handed to the gateway to set (HttpOnly there), never written to document.cookie', async () => {
    setRefreshTokenCookie('AMf-vB/x+y=z;');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('http://gw.test/session/refreshToken');
    expect(init).toMatchObject({ method: 'PUT', credentials: 'include' });
    expect(JSON.parse(String(init!.body))).toEqual({ refreshToken: 'AMf-vB/x+y=z;' });
    expect(cookieWrites).toEqual([]);
  });

  it('is cleared by the gateway on sign-out', async () => {
    clearRefreshTokenCookie();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe('http://gw.test/session/refreshToken');
    expect(init).toMatchObject({ method: 'DELETE', credentials: 'include' });
    expect(cookieWrites).toEqual([]);
  });

  it('is not asked for without a token, and a failure is only logged', async () => {
    setRefreshTokenCookie('');
    expect(fetchMock).not.toHaveBeenCalled();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    setRefreshTokenCookie('tok');
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
  });
});
