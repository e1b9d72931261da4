import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../http/client';
import { websiteScoreKeys } from './query-keys';
import type { GetWebsiteScoreResponseJson } from './types';

/** GET internal/website-score?url=…: public, rate limited (429), 400 for unreadable sites. */
export function getWebsiteScore(url: string): Promise<GetWebsiteScoreResponseJson> {
  return http.get<GetWebsiteScoreResponseJson>('internal/website-score', { params: { url } });
}

export function getWebsiteScoreQueryOptions(url: string) {
  return queryOptions({
    queryKey: websiteScoreKeys.byUrl(url),
    queryFn: () => getWebsiteScore(url),
    // The page explains 429/400 itself; retrying a rate limit only makes it worse.
    retry: false,
    meta: { toast: false },
  });
}

export function useWebsiteScore(url: string | undefined) {
  return useQuery({ ...getWebsiteScoreQueryOptions(url ?? ''), enabled: Boolean(url) });
}
