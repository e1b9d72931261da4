import { http } from '../http/client';
import type { SwitchMetricsCategoryRequestJson, SwitchMetricsCategoryResponseJson } from './types';

/**
 * POST internal/users/{userId}/switchMetricsCategory: the user (an uplifter)
 * views another store owner's category, or their own original one again.
 */
export function switchMetricsCategory(userId: string, categoryId: string): Promise<SwitchMetricsCategoryResponseJson> {
  const body: SwitchMetricsCategoryRequestJson = { categoryId };
  return http.post<SwitchMetricsCategoryResponseJson>(
    `internal/users/${encodeURIComponent(userId)}/switchMetricsCategory`,
    body,
  );
}
