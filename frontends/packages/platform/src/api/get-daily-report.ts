import { queryOptions, useQuery } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '../constants';
import { http } from '../http/client';
import { categoryPath } from './category-path';
import { categoryKeys } from './query-keys';
import type { DailyReportJson } from './types';

/**
 * GET .../business-data/dailyReport: yesterday in the store's time zone against
 * the 7 days before it. The gateway answers with the report itself (status
 * "READY" or "NO_DATA"), not wrapped.
 */
export function getDailyReport(categoryId: string): Promise<DailyReportJson> {
  return http.get<DailyReportJson>(categoryPath(categoryId, 'business-data/dailyReport'));
}

export function getDailyReportQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.dailyReport(categoryId),
    queryFn: () => getDailyReport(categoryId),
    // Polled like the current report, so a new day or a finished import shows up.
    refetchInterval: POLL_INTERVAL_MS,
  });
}

export function useDailyReport(categoryId: string | undefined) {
  return useQuery({ ...getDailyReportQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}
