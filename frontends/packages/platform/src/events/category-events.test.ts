import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { categoryKeys } from '../api/query-keys';
import { configureHttp } from '../http/client';
import { categoryEventsUrl, followEventStream, invalidateCategoryData, reconnectDelay } from './category-events';

/** A streaming body that delivers the chunks one read at a time. */
function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      chunks.forEach((chunk) => controller.enqueue(encoder.encode(chunk)));
      controller.close();
    },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('followEventStream', () => {
  it('sends the bearer token, parses events and reconnects with backoff after a drop', async () => {
    const controller = new AbortController();
    const fetchMock = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('network down'))
      .mockResolvedValueOnce(new Response(streamOf(['event: report\ndata: {"status":"REPORT_STATUS_GENERATING"', '}\n\n'])))
      .mockResolvedValueOnce(new Response(streamOf([': heartbeat\n\nevent: report\ndata: {"status":"REPORT_STATUS_READY"}\n\n'])))
      .mockImplementation(async () => {
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      });
    vi.stubGlobal('fetch', fetchMock);
    const sleeps: number[] = [];
    const statuses: string[] = [];
    const opens: boolean[] = [];

    await followEventStream({
      url: 'http://api.test/events/categories/c1',
      signal: controller.signal,
      getToken: () => 'tok',
      sleep: async (ms) => void sleeps.push(ms),
      onOpen: (reconnected) => opens.push(reconnected),
      onMessage: (message) => statuses.push(JSON.parse(message.data).status),
    });

    expect(statuses).toEqual(['REPORT_STATUS_GENERATING', 'REPORT_STATUS_READY']);
    expect(opens).toEqual([false, true]);
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: 'Bearer tok', Accept: 'text/event-stream' });
    expect(sleeps.length).toBe(3);
    // The first wait is after a failure at attempt 0; it is within [min/2, min].
    expect(sleeps[0]).toBeGreaterThanOrEqual(500);
    expect(sleeps[0]).toBeLessThanOrEqual(1000);
  });

  it('treats a non-OK answer as a drop and tries again', async () => {
    const controller = new AbortController();
    const fetchMock = vi.fn(async () => {
      if (fetchMock.mock.calls.length >= 2) controller.abort();
      return new Response('nope', { status: 501 });
    });
    vi.stubGlobal('fetch', fetchMock);
    await followEventStream({ url: 'http://x/', signal: controller.signal, onMessage: () => {}, sleep: async () => {} });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('reconnectDelay', () => {
  it('doubles up to a ceiling of 30 s', () => {
    expect(reconnectDelay(0, () => 1)).toBe(1000);
    expect(reconnectDelay(3, () => 1)).toBe(8000);
    expect(reconnectDelay(20, () => 1)).toBe(30000);
    expect(reconnectDelay(20, () => 0)).toBe(15000);
  });
});

describe('categoryEventsUrl / invalidateCategoryData', () => {
  it('builds the stream URL under the REST base', () => {
    configureHttp({ baseUrl: 'http://localhost:8080' });
    expect(categoryEventsUrl('c 1')).toBe('http://localhost:8080/events/categories/c%201');
  });

  it('marks the report, ideas, insights and params stale, not the label', async () => {
    const client = new QueryClient();
    for (const key of [
      categoryKeys.currentReport('c1'),
      categoryKeys.recentIdeas('c1'),
      categoryKeys.insights('c1'),
      categoryKeys.contentGenerationParams('c1'),
      categoryKeys.label('c1'),
    ]) {
      client.setQueryData(key, {});
    }
    await invalidateCategoryData(client, 'c1');
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(stale(categoryKeys.currentReport('c1'))).toBe(true);
    expect(stale(categoryKeys.recentIdeas('c1'))).toBe(true);
    expect(stale(categoryKeys.insights('c1'))).toBe(true);
    expect(stale(categoryKeys.contentGenerationParams('c1'))).toBe(true);
    expect(stale(categoryKeys.label('c1'))).toBe(false);
  });
});
