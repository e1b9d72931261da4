import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '../http/client';
import { HttpError, serverMessage } from '../http/http-error';
import { parseEnv } from '../env/env';
import { resetPasswordSentMessage, TOKEN_SYNC_MAX_AGE_SECONDS, UNKNOWN_ERROR_MESSAGE } from '../constants';
import { finishGoogleAuth } from './finish-google-auth';
import { getMetricsUsersInfiniteQueryOptions, listMetricsUsers } from './list-metrics-users';
import { resetPassword } from './reset-password';
import { switchMetricsCategory } from './switch-metrics-category';
import { updateEmail } from './update-email';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const call = (index = 0) => {
  const [url, init] = fetchMock.mock.calls[index]!;
  return { url: String(url).replace('http://gw.test/', ''), method: init?.method, body: init?.body };
};

describe('users account endpoints', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    configureHttp({ baseUrl: 'http://gw.test/' });
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it('finishGoogleAuth posts the popup result', async () => {
    fetchMock.mockResolvedValueOnce(json({ id: 'u1' }));
    const body = { name: 'jane', email: 'jane@example.com', idFromGoogleAuth: 'g1', suppressWelcomeEmail: false };
    await expect(finishGoogleAuth(body)).resolves.toEqual({ id: 'u1' });
    expect(call()).toEqual({ url: 'internal/users/finishGoogleAuth', method: 'POST', body: JSON.stringify(body) });
  });

  it('resetPassword posts the email', async () => {
    fetchMock.mockResolvedValueOnce(json({}));
    await resetPassword('jane@example.com');
    expect(call()).toEqual({ url: 'internal/users/resetPassword', method: 'POST', body: '{"email":"jane@example.com"}' });
  });

  it('updateEmail posts the new email for the user', async () => {
    fetchMock.mockResolvedValueOnce(json({}));
    await updateEmail('u/1', 'new@example.com');
    expect(call()).toEqual({ url: 'internal/users/u%2F1/updateEmail', method: 'POST', body: '{"email":"new@example.com"}' });
  });

  it('switchMetricsCategory posts the category', async () => {
    fetchMock.mockResolvedValueOnce(json({ categoryId: 'c2', originalCategoryId: 'c1' }));
    await switchMetricsCategory('u1', 'c2');
    expect(call()).toEqual({ url: 'internal/users/u1/switchMetricsCategory', method: 'POST', body: '{"categoryId":"c2"}' });
  });

  it('listMetricsUsers sends query, page size and token; empty ones are left out', async () => {
    fetchMock.mockImplementation(async () => json({ users: [] }));
    await listMetricsUsers({ query: 'jane', pageSize: 5, pageToken: 't2' });
    await listMetricsUsers({});
    expect(call(0).url).toBe('internal/metricsUsers?query=jane&pageSize=5&pageToken=t2');
    expect(call(1).url).toBe('internal/metricsUsers?pageSize=20');
  });

  it('pages through metricsUsers until there is no next token', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ users: [{ id: 'a' }], nextPageToken: 'p2' }))
      .mockResolvedValueOnce(json({ users: [{ id: 'b' }] }));
    const client = new QueryClient();
    const options = getMetricsUsersInfiniteQueryOptions('shop');
    await client.fetchInfiniteQuery(options);
    expect(options.getNextPageParam({ users: [], nextPageToken: 'p2' }, [], '', [])).toBe('p2');
    expect(options.getNextPageParam({ users: [] }, [], '', [])).toBeUndefined();
    expect(call(0).url).toBe('internal/metricsUsers?query=shop&pageSize=20');
  });
});

describe('serverMessage', () => {
  it("is the error body's message, else the fallback", () => {
    expect(serverMessage(new HttpError(400, 'Bad Request', { message: 'Email already in use.' }), 'x')).toBe(
      'Email already in use.',
    );
    expect(serverMessage(new HttpError(501, 'Not Implemented'), UNKNOWN_ERROR_MESSAGE)).toBe(UNKNOWN_ERROR_MESSAGE);
    expect(serverMessage(new Error('boom'), UNKNOWN_ERROR_MESSAGE)).toBe(UNKNOWN_ERROR_MESSAGE);
  });
});

describe('account constants and settings', () => {
  it("keeps the spec's exact reset note, typo included", () => {
    expect(resetPasswordSentMessage('a@b.co')).toBe('An email as been sent to a@b.co');
    expect(TOKEN_SYNC_MAX_AGE_SECONDS).toBe(300);
  });

  it('reads the optional token sync URL', () => {
    expect(parseEnv({ skipEnvValidation: 'true', tokenSyncUrl: 'https://sync.test/token' }).tokenSyncUrl).toBe(
      'https://sync.test/token',
    );
    expect(parseEnv({ skipEnvValidation: 'true', tokenSyncUrl: '' }).tokenSyncUrl).toBeUndefined();
  });
});
