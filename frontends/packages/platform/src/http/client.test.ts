import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStore } from '../auth/token-store';
import { configureHttp, http } from './client';
import { HttpError } from './http-error';

const fetchMock = vi.fn<typeof fetch>();

function respond(body: string | null, init: ResponseInit & { contentType?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.contentType) headers.set('content-type', init.contentType);
  fetchMock.mockResolvedValueOnce(new Response(body, { ...init, headers }));
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('http client', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    configureHttp({ baseUrl: 'http://gateway.test/' });
    tokenStore.set(null);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('sends "Bearer unauthed" when signed out', async () => {
    respond('{}', { status: 200, contentType: 'application/json' });
    await http.get('internal/users/u1');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://gateway.test/internal/users/u1');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer unauthed');
  });

  it('sends the stored ID token and a JSON body', async () => {
    tokenStore.set('id-token');
    respond('{"id":"u1"}', { status: 200, contentType: 'application/json' });
    const result = await http.post<{ id: string }>('internal/users', { email: 'a@b.c' });
    const [, init] = fetchMock.mock.calls[0]!;
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer id-token');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"email":"a@b.c"}');
    expect(result).toEqual({ id: 'u1' });
  });

  it('adds search params', async () => {
    respond('[]', { status: 200, contentType: 'application/json' });
    await http.get('internal/users', { params: { query: 'a b', pageSize: 10, skip: undefined } });
    expect(fetchMock.mock.calls[0]![0]).toBe('http://gateway.test/internal/users?query=a+b&pageSize=10');
  });

  it('turns a non-OK response into an error with its status and JSON body', async () => {
    respond('{"message":"email already exists","code":6}', {
      status: 409,
      statusText: 'Conflict',
      contentType: 'application/json',
    });
    const error = await failure(http.post('internal/users', {}));
    expect(error.status).toBe(409);
    expect(error.statusText).toBe('Conflict');
    expect(error.body).toEqual({ message: 'email already exists', code: 6 });
    expect(error.message).toBe('email already exists');
    expect(error.soft).toBe(false);
  });

  it('marks 5xx errors as soft', async () => {
    respond('{"message":"boom"}', { status: 503, statusText: 'Service Unavailable', contentType: 'application/json' });
    const error = await failure(http.get('x'));
    expect(error.status).toBe(503);
    expect(error.soft).toBe(true);
  });

  it('defaults an unparseable error body to {}', async () => {
    respond('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway', contentType: 'text/html' });
    const error = await failure(http.get('x'));
    expect(error.status).toBe(502);
    expect(error.body).toEqual({});
    expect(error.message).toBe('Bad Gateway');
  });

  it('defaults an empty error body to {}', async () => {
    respond(null, { status: 401, statusText: 'Unauthorized' });
    const error = await failure(http.get('x'));
    expect(error.status).toBe(401);
    expect(error.body).toEqual({});
  });

  it('returns an empty result for 204', async () => {
    respond(null, { status: 204 });
    await expect(http.delete('internal/users-admin/u1')).resolves.toBeUndefined();
  });

  it('gives 404 when the response is text, not JSON', async () => {
    respond('<!doctype html><p>app</p>', { status: 200, contentType: 'text/html' });
    const error = await failure(http.get('x'));
    expect(error.status).toBe(404);
  });

  it('gives 400 when the JSON does not parse', async () => {
    respond('{"id":', { status: 200, contentType: 'application/json' });
    const error = await failure(http.get('x'));
    expect(error.status).toBe(400);
  });

  it('gives 500 when the network fails', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const error = await failure(http.get('x'));
    expect(error.status).toBe(500);
    expect(error.soft).toBe(true);
  });

  it('lets an abort through untouched', async () => {
    fetchMock.mockRejectedValueOnce(new DOMException('aborted', 'AbortError'));
    await expect(http.get('x')).rejects.toMatchObject({ name: 'AbortError' });
  });
});
