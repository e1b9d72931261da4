/** An error body as the gateway sends it; parsed leniently, so fields may be absent. */
export interface ErrorBody {
  message?: string;
  code?: number;
  [key: string]: unknown;
}

/**
 * A failed HTTP call. `status` is the response status, or the status the
 * network layer assigns (404 non-JSON, 400 bad JSON, 500 network failure).
 * `soft` marks server-side (5xx) failures that are worth retrying.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly soft: boolean;
  readonly body: ErrorBody;

  constructor(status: number, statusText: string, body: ErrorBody = {}) {
    super(typeof body.message === 'string' && body.message ? body.message : statusText);
    this.name = 'HttpError';
    this.status = status;
    this.statusText = statusText;
    this.soft = status >= 500;
    this.body = body;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}

/**
 * The message the server sent with a failure (the parsed error body's
 * `message`), or `fallback`. Status texts are not messages for people.
 */
export function serverMessage(error: unknown, fallback: string): string {
  if (isHttpError(error) && typeof error.body.message === 'string' && error.body.message.trim()) {
    return error.body.message;
  }
  return fallback;
}
