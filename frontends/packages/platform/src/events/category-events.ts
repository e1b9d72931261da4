import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getContentGenerationParamsQueryOptions } from '../api/get-content-generation-params';
import { getCurrentReportQueryOptions } from '../api/get-current-report';
import { getInsightsQueryOptions } from '../api/get-insights';
import { getRecentIdeasQueryOptions } from '../api/get-recent-ideas';
import { tokenStore } from '../auth/token-store';
import { streamUrl } from '../http/client';
import { createSseParser, type SseMessage } from './sse-parser';

export const RECONNECT_MIN_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/** Exponential backoff with jitter, so many tabs do not reconnect in lockstep. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface StreamOptions {
  url: string;
  signal: AbortSignal;
  onMessage: (message: SseMessage) => void;
  /** Called on every successful (re)connection; `reconnected` is false the first time. */
  onOpen?: (reconnected: boolean) => void;
  getToken?: () => string | null;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows an SSE stream with fetch (EventSource cannot send the Authorization
 * header) and reconnects with backoff until the signal aborts. Never throws.
 */
export async function followEventStream({
  url,
  signal,
  onMessage,
  onOpen,
  getToken = tokenStore.get,
  sleep = abortableSleep,
}: StreamOptions): Promise<void> {
  let attempt = 0;
  let opened = false;
  while (!signal.aborted) {
    const parser = createSseParser(onMessage);
    try {
      const response = await fetch(url, {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${getToken() ?? 'unauthed'}` },
        signal,
        cache: 'no-store',
      });
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      onOpen?.(opened);
      opened = true;
      attempt = 0;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Dropped or refused: fall through to the backoff; polling covers the gap.
    }
    if (signal.aborted) return;
    await sleep(parser.retryMs ?? reconnectDelay(attempt), signal);
    attempt += 1;
  }
}

/** Everything a report event can change on screen. */
export function invalidateCategoryData(queryClient: QueryClient, categoryId: string): Promise<unknown> {
  return Promise.all(
    [
      getCurrentReportQueryOptions(categoryId).queryKey,
      getRecentIdeasQueryOptions(categoryId).queryKey,
      getInsightsQueryOptions(categoryId).queryKey,
      getContentGenerationParamsQueryOptions(categoryId).queryKey,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/** `GET {streamBaseUrl}/categories/{categoryId}` (locally http://localhost:8080/events/categories/…). */
export function categoryEventsUrl(categoryId: string): string {
  return streamUrl(`categories/${encodeURIComponent(categoryId)}`);
}

/**
 * Live updates for one category: each `report` event refetches the report,
 * ideas, insights and params. A reconnection refetches too, since events may
 * have been missed while the stream was down.
 */
export function useCategoryEvents(categoryId: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!categoryId) return;
    const controller = new AbortController();
    void followEventStream({
      url: categoryEventsUrl(categoryId),
      signal: controller.signal,
      onOpen: (reconnected) => {
        if (reconnected) void invalidateCategoryData(queryClient, categoryId);
      },
      onMessage: (message) => {
        if (message.event === 'report') void invalidateCategoryData(queryClient, categoryId);
      },
    });
    return () => controller.abort();
  }, [categoryId, queryClient]);
}
