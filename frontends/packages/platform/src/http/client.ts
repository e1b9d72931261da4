import { tokenStore } from '../auth/token-store';
import { HttpError, type ErrorBody } from './http-error';

/** The one HTTP client: bearer header, JSON bodies and the spec's error rules. */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Params = Record<string, string | number | boolean | undefined>;

interface RequestOptions {
  params?: Params;
  body?: unknown;
  signal?: AbortSignal;
  /** 'include' for the one call whose answer sets a cookie (api/refresh-token-cookie.ts). */
  credentials?: RequestCredentials;
}

let baseUrl = '';
let streamBaseUrl = '';

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/** Set once at start-up from the validated environment. */
export function configureHttp(options: { baseUrl: string; streamBaseUrl?: string }): void {
  baseUrl = withSlash(options.baseUrl);
  streamBaseUrl = options.streamBaseUrl ? withSlash(options.streamBaseUrl) : '';
}

/** An absolute URL under the event-stream base (spec: the event-stream base URL), or the REST base's `events/` when none is set. */
export function streamUrl(path: string): string {
  return buildUrl(path, undefined, streamBaseUrl || (baseUrl ? `${baseUrl}events/` : ''));
}

function buildUrl(path: string, params?: Params, base: string = baseUrl): string {
  const url = new URL(path.replace(/^\//, ''), base || window.location.origin + '/');
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

async function parseErrorBody(response: Response): Promise<ErrorBody> {
  try {
    const parsed: unknown = JSON.parse(await response.text());
    return parsed !== null && typeof parsed === 'object' ? (parsed as ErrorBody) : {};
  } catch {
    return {};
  }
}

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    // The gateway expects the literal 'unauthed' when nobody is signed in.
    Authorization: `Bearer ${tokenStore.get() ?? 'unauthed'}`,
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.params), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new HttpError(500, 'Network Error');
  }

  if (!response.ok) {
    throw new HttpError(response.status, response.statusText, await parseErrorBody(response));
  }
  if (response.status === 204) return undefined as T;

  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('json')) {
    // Typically an HTML fallback page: the resource the caller wanted is not there.
    throw new HttpError(404, 'Not Found');
  }
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new HttpError(400, 'Bad Request');
  }
}

export const http = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
