import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '../constants';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { ReportJson } from './types';

/** GET .../business-data/currentReport: the latest review with insights and top ideas. */
export function getCurrentReport(categoryId: string): Promise<ReportJson> {
  return http.get<ReportJson>(categoryPath(categoryId, 'business-data/currentReport'));
}

export function getCurrentReportQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.currentReport(categoryId),
    queryFn: () => getCurrentReport(categoryId),
    // Polling is the fallback for the live event stream (spec section 9).
    refetchInterval: POLL_INTERVAL_MS,
  });
}

export function useCurrentReport(categoryId: string | undefined) {
  return useQuery({ ...getCurrentReportQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
